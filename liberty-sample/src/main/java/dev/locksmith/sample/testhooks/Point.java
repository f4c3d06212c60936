package dev.locksmith.sample.testhooks;

import java.util.Locale;

/**
 * The points of a reservation that a test can wait for, stop at, or fail at, in the order a
 * request reaches them.
 */
public enum Point {
    /** The request arrived, before any lock was asked for. */
    RECEIVED,
    /** The reservation's work began: the lock is held (unless locking is off) and the transaction open. */
    STARTED,
    /** The new level and the reservation are written and flushed, not committed. */
    WRITTEN,
    /** The transaction is committing ({@code beforeCompletion}); the lock must still be held. */
    COMMITTING;

    /**
     * @param value a point's name in any case, or null
     * @return that point, or null for null
     * @throws IllegalArgumentException for an unknown name
     */
    public static Point parse(String value) {
        return value == null || value.isBlank() ? null : valueOf(value.trim().toUpperCase(Locale.ROOT));
    }
}
