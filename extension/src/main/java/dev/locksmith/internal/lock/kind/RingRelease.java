package dev.locksmith.internal.lock.kind;

/**
 * How a last release treats the ring of waiting processes ({@link LockKind#offersToOtherProcesses()}):
 * whether it offers the lock to the first of them, for how long the offer reserves it, whether
 * the releasing process joins the ring's end, and what a grant of the reentrant lock needs.
 *
 * @param offers        whether the release may offer the lock to a waiting process
 * @param reserveMillis how long an offer keeps the lock for the process offered to at most, in
 *                      case nobody ever takes or passes it: the releaser's lease
 * @param staysInRing   whether the releasing process stays in the ring: it listens on its own
 *                      channel, so that its threads, which often come back at once, wait for
 *                      their turn without asking Redis
 * @param patienceMillis how long nobody but the process granted the reentrant lock passes the
 *                      grant on: the releaser's command timeout, after which its watch does
 * @param counterLifetimeMillis the fencing counter's lifetime, should the grant's token find it gone
 * @param grantOnItsWord the fencing token of the grant the released hold was trusted on while
 *                      its confirmation is still under way (Redis then takes the release from the
 *                      grantee as well), or {@link #CONFIRMED}
 */
public record RingRelease(boolean offers, long reserveMillis, boolean staysInRing, long patienceMillis,
                          long counterLifetimeMillis, long grantOnItsWord) {
    /** {@link #grantOnItsWord()} of a hold that Redis confirmed. */
    public static final long CONFIRMED = -1;
    /** A release that offers the lock to nobody: every waiter that asked is woken. */
    public static final RingRelease NONE = new RingRelease(false, 0, false, 0, 0, CONFIRMED);
}
