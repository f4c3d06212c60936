package dev.locksmith.internal.wire;

import java.util.Optional;

/**
 * An offer of the reentrant or write lock to one process, as Redis sends it on that process's
 * own channel. Two formats, each written by one function in {@code common.lua}:
 * <ul>
 *   <li>{@code o2|<offer token>|<offer number>} ({@code offer_message}): the lock is reserved for
 *       the process, whose waiter takes it with an attempt of its own (the write lock, and a
 *       reentrant lock released by an older version);</li>
 *   <li>{@code o3|<offer token>|<offer number>|<grant token>|<patience ms>}
 *       ({@code grant_message}): a grant of the reentrant lock, which already carries the taking
 *       waiter's fencing token and how long after it was made nobody but this process may pass it
 *       on; the waiter may hold the lock on hearing it ({@code GrantTrust}).</li>
 * </ul>
 * The format's name says which, so a process of another version tells an offer it cannot read
 * from one it can ({@code docs/locks.md}, "Offers between versions"); a fair turn names an owner
 * ({@code <manager id>:<thread>}) and is never an offer.
 *
 * @param token          the fencing token of the hold whose release made the offer
 * @param number         how often the offer was passed on since
 * @param grant          the taking waiter's fencing token, or {@link #NO_GRANT}
 * @param patienceMillis how long after the grant was made nobody but this process passes it on
 *                       (0 without a grant)
 */
public record OfferMessage(long token, long number, long grant, long patienceMillis) {
    /** The start of every offer without a grant that this version writes and reads, its format included. */
    public static final String PREFIX = "o2|";
    /** The start of every grant this version writes and reads. */
    public static final String GRANT_PREFIX = "o3|";
    /** {@link #grant()} of an offer that carries none. */
    public static final long NO_GRANT = -1;

    /**
     * An offer without a grant.
     */
    public OfferMessage(long token, long number) {
        this(token, number, NO_GRANT, 0);
    }

    /**
     * @return whether the offer carries a grant
     */
    public boolean grants() {
        return grant != NO_GRANT;
    }

    /**
     * @param message a message heard on the process's own channel
     * @return whether it is an offer, of this format or another: an {@code o} and no owner id
     *         (a manager id may begin with {@code o}, but an owner id always holds a {@code :})
     */
    public static boolean isOffer(String message) {
        return message.startsWith("o") && message.indexOf(':') < 0;
    }

    /**
     * @param message an offer ({@link #isOffer})
     * @return the offer, or empty when it is of neither format (another version wrote it)
     */
    public static Optional<OfferMessage> parse(String message) {
        boolean grant = message.startsWith(GRANT_PREFIX);
        if (!grant && !message.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] parts = message.substring(PREFIX.length()).split("\\|", -1);
        try {
            if (!grant && parts.length == 2) {
                return Optional.of(new OfferMessage(Long.parseLong(parts[0]), Long.parseLong(parts[1])));
            }
            if (grant && parts.length == 4) {
                return Optional.of(new OfferMessage(Long.parseLong(parts[0]), Long.parseLong(parts[1]),
                        Long.parseLong(parts[2]), Long.parseLong(parts[3])));
            }
        } catch (NumberFormatException e) {
            // no numbers: a format this version does not know
        }
        return Optional.empty();
    }

    /**
     * @return the message as {@code offer_message} or {@code grant_message} in {@code common.lua} writes it
     */
    public String text() {
        return grants() ? GRANT_PREFIX + token + "|" + number + "|" + grant + "|" + patienceMillis
                : PREFIX + token + "|" + number;
    }
}
