package dev.locksmith.sample.bank;

import dev.locksmith.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * Transfers and openings under the bank's lock {@code bank:<bank>}, fenced: as the transaction's
 * first statement, Locksmith checks this holder's fencing token against the fence table in the
 * same database. A holder whose lease ran out while it paused, and whose lock a later holder took
 * since, either is refused ({@code FencedWriteRefusedException}, nothing written) or holds the
 * later holder back until its own transaction has ended; no update is lost, whichever way the
 * pause falls. See docs/fencing.md.
 */
@ApplicationScoped
public class FencedTeller {
    @Inject
    BankLedger ledger;

    /**
     * @return the balances read and written
     * @throws dev.locksmith.FencedWriteRefusedException if a later holder of the bank's lock has
     *                                                   checked in first; nothing was written
     * @throws dev.locksmith.LockTimeoutException        if the lock was not free within {@code locksmith.wait-time}
     */
    @Locked(value = "bank:{bank}", fenced = true)
    @Transactional
    public TransferReceipt transfer(String bank, String from, String to, long amount) {
        return ledger.transfer(bank, from, to, amount, true);
    }

    /**
     * @return the account's balance now
     * @throws dev.locksmith.FencedWriteRefusedException if a later holder of the bank's lock has
     *                                                   checked in first; nothing was written
     */
    @Locked(value = "bank:{bank}", fenced = true)
    @Transactional
    public AccountBalance open(String bank, String account, long balance) {
        return ledger.open(bank, account, balance);
    }
}
