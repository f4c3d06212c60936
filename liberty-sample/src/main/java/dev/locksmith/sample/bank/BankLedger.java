package dev.locksmith.sample.bank;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The bank's accounts, and the read-modify-write that must never run twice at once in one bank:
 * {@link #transfer}. It takes no lock itself; its callers ({@link FencedTeller},
 * {@link UnfencedTeller}) hold the bank's lock around it.
 */
@ApplicationScoped
public class BankLedger {
    @PersistenceContext(unitName = "stock")
    EntityManager entityManager;

    @Inject
    @ConfigProperty(name = "sample.instance", defaultValue = "sample")
    String instance;

    /**
     * Moves {@code amount} from one account to another: reads both balances, then writes both.
     * Two callers that run this at once in the same bank may read the same balance, and one
     * update is lost.
     *
     * @param fenced whether the caller's lock is fenced, for the receipt
     * @return the balances read and written
     * @throws UnknownAccountException     if the bank has no such account
     * @throws InsufficientFundsException if {@code from} holds less than {@code amount}
     */
    @Transactional(TxType.MANDATORY)
    public TransferReceipt transfer(String bank, String from, String to, long amount, boolean fenced) {
        // Plain reads, not SELECT ... FOR UPDATE: the distributed lock is what serializes this.
        Account source = find(bank, from);
        Account target = find(bank, to);
        long fromBefore = source.balance();
        long toBefore = target.balance();
        if (amount > fromBefore) {
            throw new InsufficientFundsException(bank, from, amount, fromBefore);
        }
        // Each write is sent here, under the lock and in this order, not at the commit's flush:
        // Locksmith's check before commit then comes after the last write.
        source.setBalance(fromBefore - amount);
        entityManager.flush();
        target.setBalance(toBefore + amount);
        entityManager.flush();
        return new TransferReceipt(bank, from, to, amount, fromBefore, toBefore, fromBefore - amount,
                toBefore + amount, instance, fenced);
    }

    /**
     * Opens an account with a balance, or sets the balance of an account the bank has.
     *
     * @return the account's balance now
     */
    @Transactional(TxType.MANDATORY)
    public AccountBalance open(String bank, String account, long balance) {
        Account existing = entityManager.find(Account.class, Account.id(bank, account));
        if (existing == null) {
            entityManager.persist(new Account(bank, account, balance));
        } else {
            existing.setBalance(balance);
        }
        entityManager.flush();
        return new AccountBalance(bank, account, balance);
    }

    /**
     * @return every account of the bank and their total; no accounts for a bank never opened
     */
    @Transactional
    public BankStatement statement(String bank) {
        List<AccountBalance> accounts = entityManager.createQuery(
                        "select a from Account a where a.bank = :bank order by a.name", Account.class)
                .setParameter("bank", bank)
                .getResultStream()
                .map(account -> new AccountBalance(bank, account.name(), account.balance()))
                .toList();
        return new BankStatement(bank, accounts, accounts.stream().mapToLong(AccountBalance::balance).sum());
    }

    private Account find(String bank, String account) {
        Account found = entityManager.find(Account.class, Account.id(bank, account));
        if (found == null) {
            throw new UnknownAccountException(bank, account);
        }
        return found;
    }
}
