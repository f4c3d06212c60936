package dev.locksmith.sample.bank;

/**
 * The answer to a transfer that committed.
 *
 * @param bank       the bank
 * @param from       the account debited
 * @param to         the account credited
 * @param amount     how much
 * @param fromBefore the balance of {@code from} this transfer read; under the lock, the one the
 *                   previous transfer left
 * @param toBefore   the balance of {@code to} this transfer read
 * @param fromAfter  the balance of {@code from} it wrote
 * @param toAfter    the balance of {@code to} it wrote
 * @param instance   which server did it ({@code sample.instance})
 * @param fenced     whether the transfer was fenced ({@code @Locked(fenced = true)})
 */
public record TransferReceipt(String bank, String from, String to, long amount, long fromBefore, long toBefore,
        long fromAfter, long toAfter, String instance, boolean fenced) {
}
