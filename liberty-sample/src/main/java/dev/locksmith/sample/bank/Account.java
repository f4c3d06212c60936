package dev.locksmith.sample.bank;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * One account of a bank and its balance.
 *
 * <p>No {@code @Version} column, on purpose, as for the stock: the bank's distributed lock, and
 * with {@code fenced = true} the fence table, are what keep two transfers from reading the same
 * balance and overwriting each other.
 */
@Entity
@Table(name = "bank_account")
public class Account {
    @Id
    private String id;
    private String bank;
    private String name;
    private long balance;

    protected Account() {
        // for JPA
    }

    Account(String bank, String name, long balance) {
        this.id = id(bank, name);
        this.bank = bank;
        this.name = name;
        this.balance = balance;
    }

    /**
     * @return the row's key: the bank and the account's name, which is unique in its bank
     */
    static String id(String bank, String name) {
        return bank + "/" + name;
    }

    String name() {
        return name;
    }

    long balance() {
        return balance;
    }

    void setBalance(long balance) {
        this.balance = balance;
    }
}
