package dev.locksmith.internal.lock.ring;

/**
 * What this process does with an offer it heard ({@link ProcessRing#offered}).
 */
public enum OfferOutcome {
    /** The first waiter should take it. */
    TAKE,
    /** Nothing here waits any more: it was passed on. */
    PASSED_ON,
    /** Another version wrote it: the first waiter asks Redis, as after any wake-up. */
    UNREADABLE
}
