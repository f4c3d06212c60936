package dev.locksmith.internal.wire;

import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The value of the exclusive lock's key (reentrant and fair), as {@code exclusive_value} in
 * {@code exclusive.lua} writes it and {@code exclusive_fields} reads it:
 * {@code <mark><owner>|<fencing token>|<hold count>|<since ms>|<ring>|<thread name>}. While the lock
 * stands offered to one waiting process (mark {@link Mark#OFFERED}) it is
 * {@code r<manager id>:|<offer token>|<offer number>|<offered ms>|<ring>|}: the fields carry the
 * offer instead, as each component says.
 *
 * @param mark   who holds it, and whether a waiter asked to be woken on release
 * @param owner  the holder's owner id ({@code <manager id>:<thread id>}); for an offer, the manager
 *               id offered to, with its {@code :}
 * @param token  the holder's fencing token; for an offer, the token of the hold whose release made it
 * @param count  the holder's hold count (0 once kept); for an offer, how often it was passed on
 * @param since  since when it is held, or when the offer was made; null when the value does not say
 *               (an offer made by an older version)
 * @param ring   the processes waiting for it, in turn order, as {@code ,<manager id>:,...,}; "" when none
 * @param thread the holding thread's name; "" for an offer
 */
public record ExclusiveValue(Mark mark, String owner, long token, long count, Instant since, String ring,
                             String thread) {
    // As exclusive_fields': the thread name, last, may hold anything, a '|' or a line break included.
    private static final Pattern FORM = Pattern.compile("^(.)([^|]*)\\|(\\d+)\\|(\\d+)\\|(\\d*)\\|([^|]*)\\|(.*)$",
            Pattern.DOTALL);

    /**
     * The first character of the value.
     */
    public enum Mark {
        /** A reentrant holder. */
        REENTRANT('-'),
        /** A reentrant holder, with waiters of its own process asking to be woken by {@code *}. */
        REENTRANT_WAITED_HERE('w'),
        /** A reentrant holder, with waiters of another process (in the ring, or asking for {@code *}). */
        REENTRANT_WAITED_ELSEWHERE('W'),
        /** A fair holder, whose release wakes the head of the fair queue anyway. */
        FAIR('f'),
        /** A fair holder, with waiters asking to be woken by {@code *}. */
        FAIR_WAITED('F'),
        /** Kept after its holder's last release until its minimum hold passed: taken, but nobody's. */
        KEPT('k'),
        /** Held by nobody: offered to one waiting process, reserved for it. */
        OFFERED('r');

        private final char symbol;

        Mark(char symbol) {
            this.symbol = symbol;
        }

        /**
         * @return the character that stands for it in the value
         */
        public char symbol() {
            return symbol;
        }

        /**
         * @return the mark of that character, or empty for one this version does not know
         */
        static Optional<Mark> of(char symbol) {
            for (Mark mark : values()) {
                if (mark.symbol == symbol) {
                    return Optional.of(mark);
                }
            }
            return Optional.empty();
        }

        /**
         * @return whether an owner holds the lock (not kept, not offered)
         */
        public boolean hasHolder() {
            return this != KEPT && this != OFFERED;
        }
    }

    /**
     * @param value the key's value
     * @return the value read, or empty when it is of another form (another version wrote it)
     */
    public static Optional<ExclusiveValue> parse(String value) {
        Matcher field = FORM.matcher(value);
        if (!field.matches()) {
            return Optional.empty();
        }
        Optional<Mark> mark = Mark.of(field.group(1).charAt(0));
        try {
            return mark.map(known -> new ExclusiveValue(known, field.group(2), Long.parseLong(field.group(3)),
                    Long.parseLong(field.group(4)),
                    field.group(5).isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(field.group(5))),
                    field.group(6), field.group(7)));
        } catch (NumberFormatException e) {
            return Optional.empty(); // digits beyond a long: no value this version wrote
        }
    }

    /**
     * @return the value as {@code exclusive_value} in {@code exclusive.lua} writes it
     */
    public String text() {
        return mark.symbol() + owner + "|" + token + "|" + count + "|" + (since == null ? "" : since.toEpochMilli())
                + "|" + ring + "|" + thread;
    }

    /**
     * @return whether the lock is taken: held, or kept after its last hold; false while it stands
     *         offered to a waiting process and nobody holds it
     */
    public boolean taken() {
        return mark != Mark.OFFERED;
    }

    /**
     * @param ownerId an owner id
     * @return whether that owner holds the lock (a kept lock names its last holder, but is nobody's)
     */
    public boolean heldBy(String ownerId) {
        return mark.hasHolder() && owner.equals(ownerId);
    }
}
