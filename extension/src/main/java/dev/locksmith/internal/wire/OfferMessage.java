package dev.locksmith.internal.wire;

import java.util.Optional;

/**
 * An offer of the reentrant or write lock to one process, as Redis sends it on that process's
 * own channel: {@code o2|<offer token>|<offer number>}, written by {@code offer_message} in
 * {@code common.lua}. The {@code o2} says the format, so a process of another version tells an
 * offer it cannot read from one it can ({@code docs/locks.md}, "Offers between versions"); a fair
 * turn names an owner ({@code <manager id>:<thread>}) and is never an offer.
 *
 * @param token  the fencing token of the hold whose release made the offer
 * @param number how often the offer was passed on since
 */
public record OfferMessage(long token, long number) {
    /** The start of every offer this version writes and reads, its format included. */
    public static final String PREFIX = "o2|";

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
     * @return the offer, or empty when it is not of this format (another version wrote it)
     */
    public static Optional<OfferMessage> parse(String message) {
        if (!message.startsWith(PREFIX)) {
            return Optional.empty();
        }
        int bar = message.indexOf('|', PREFIX.length());
        try {
            return Optional.of(new OfferMessage(Long.parseLong(message.substring(PREFIX.length(), bar)),
                    Long.parseLong(message.substring(bar + 1))));
        } catch (RuntimeException e) {
            return Optional.empty(); // no bar, or no numbers: a format this version does not know
        }
    }

    /**
     * @return the message as {@code offer_message} in {@code common.lua} writes it
     */
    public String text() {
        return PREFIX + token + "|" + number;
    }
}
