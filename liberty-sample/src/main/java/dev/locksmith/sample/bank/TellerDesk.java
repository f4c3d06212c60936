package dev.locksmith.sample.bank;

import dev.locksmith.Locked;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

/**
 * The fenced transfer as a stateless session bean: the container begins and commits the
 * transaction, and Locksmith checks the holder's fencing token in it, as its first statement,
 * exactly as for the CDI bean {@link FencedTeller}.
 */
@Stateless
public class TellerDesk {
    @Inject
    BankLedger ledger;

    /**
     * @return the balances read and written
     * @throws dev.locksmith.FencedWriteRefusedException if a later holder of the bank's lock has
     *                                                   checked in first; nothing was written
     */
    @Locked(value = "bank:{bank}", fenced = true)
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public TransferReceipt transfer(String bank, String from, String to, long amount) {
        return ledger.transfer(bank, from, to, amount, true);
    }
}
