package dev.locksmith.sample.bank;

import dev.locksmith.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * The same transfer as {@link FencedTeller#transfer}, under the same lock, without
 * {@code fenced}: Locksmith still keeps the lock until the commit and fails a commit whose lock
 * was lost before it, but a holder that pauses between that check and the database's commit can
 * have its write overwritten by the next holder, who read the balance from before it. Here to
 * show what fencing adds, with {@code ?fenced=false}.
 */
@ApplicationScoped
public class UnfencedTeller {
    @Inject
    BankLedger ledger;

    /**
     * @return the balances read and written
     * @throws dev.locksmith.LockTimeoutException if the lock was not free within {@code locksmith.wait-time}
     */
    @Locked("bank:{bank}")
    @Transactional
    public TransferReceipt transfer(String bank, String from, String to, long amount) {
        return ledger.transfer(bank, from, to, amount, false);
    }
}
