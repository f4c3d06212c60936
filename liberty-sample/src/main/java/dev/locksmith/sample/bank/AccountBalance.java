package dev.locksmith.sample.bank;

/**
 * One account's balance as the database has it now.
 *
 * @param bank    the bank
 * @param account the account's name in that bank
 * @param balance its balance
 */
public record AccountBalance(String bank, String account, long balance) {
}
