package dev.locksmith.sample.bank;

import java.util.List;

/**
 * Every account of a bank, and their total: transfers move money between accounts and never
 * change the total, so a total that changed shows a lost update.
 *
 * @param bank     the bank
 * @param accounts its accounts, by name
 * @param total    the sum of their balances
 */
public record BankStatement(String bank, List<AccountBalance> accounts, long total) {
}
