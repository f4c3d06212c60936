package dev.locksmith.internal.lock.kind;

/**
 * How a last release treats the ring of waiting processes ({@link LockKind#offersToOtherProcesses()}):
 * whether it offers the lock to the first of them, for how long the offer reserves it, and whether
 * the releasing process joins the ring's end.
 *
 * @param offers        whether the release may offer the lock to a waiting process
 * @param reserveMillis how long an offer keeps the lock for the process offered to at most, in
 *                      case nobody ever takes or passes it: the releaser's lease
 * @param staysInRing   whether the releasing process stays in the ring: it listens on its own
 *                      channel, so that its threads, which often come back at once, wait for
 *                      their turn without asking Redis
 */
public record RingRelease(boolean offers, long reserveMillis, boolean staysInRing) {
    /** A release that offers the lock to nobody: every waiter that asked is woken. */
    public static final RingRelease NONE = new RingRelease(false, 0, false);
}
