package dev.locksmith.internal.lock.local;

/**
 * What a waiter of the line is to do next, once {@link LineWaits#awaitTurn} or
 * {@link LineWaits#awaitWakeUp} returns.
 */
public enum Turn {
    /** Ask Redis: it is first in line, or was woken, or its hand-over fell through. */
    ASK,
    /** It holds the lock: a release here handed it over ({@link HandOver#token()}). */
    HANDED,
    /** The deadline passed; it has left the line. */
    TIMED_OUT
}
