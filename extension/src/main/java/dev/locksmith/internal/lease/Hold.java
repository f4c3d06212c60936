package dev.locksmith.internal.lease;

import dev.locksmith.internal.observe.HoldObservation;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What this process knows of one hold: whose it is, how often its owner entered it, its fencing
 * token, its lease, and whether it is still held, being released, or lost. The owner id is fixed
 * at acquisition, so a release from another thread (a transaction completing elsewhere) releases
 * the right hold. The hold count is the holder's: Redis keeps a copy for inspection only, so a
 * re-entry whose reply was lost cannot leave a count behind that outlives the holder.
 */
public final class Hold {
    private static final CompletableFuture<Void> CONFIRMED = CompletableFuture.completedFuture(null);

    private final String name;
    private final String description;
    private final HoldKeys keys;
    private final String owner;
    private final String field;
    private final String expiryField;
    private final long fencingToken;
    private final long leaseMillis;
    private final boolean watchdog;
    private final AtomicInteger count = new AtomicInteger(1);
    private volatile boolean tokenPublished;
    private volatile boolean lost;
    private volatile boolean releasing;
    private final long grantedNanos;
    private volatile long lastConfirmedNanos;
    private volatile long keepUntilNanos;
    private volatile HoldObservation observation = HoldObservation.NONE;
    private final AtomicBoolean observationEnded = new AtomicBoolean();
    private volatile CompletableFuture<Void> confirmation = CONFIRMED;

    /**
     * @param name          the lock's name
     * @param description   how messages name the lock, such as {@code read lock 'stock:1'}
     * @param keys          where the hold lives
     * @param owner         the owner id
     * @param field         the owner (an exclusive lock) or its hold field (read/write)
     * @param expiryField   "" (an exclusive lock) or the owner's own expiry field (read/write)
     * @param fencingToken  the token of the acquisition
     * @param leaseMillis   the lease the hold was taken with
     * @param watchdog      whether the lease keeper renews it
     * @param sentAtNanos   when the acquisition was sent, on the lease keeper's clock: Redis
     *                      confirmed the hold no earlier than that
     */
    public Hold(String name, String description, HoldKeys keys, String owner, String field, String expiryField,
                long fencingToken, long leaseMillis, boolean watchdog, long sentAtNanos) {
        this.name = name;
        this.description = description;
        this.keys = keys;
        this.owner = owner;
        this.field = field;
        this.expiryField = expiryField;
        this.fencingToken = fencingToken;
        this.leaseMillis = leaseMillis;
        this.watchdog = watchdog;
        this.grantedNanos = sentAtNanos;
        this.lastConfirmedNanos = sentAtNanos;
        this.keepUntilNanos = sentAtNanos;
    }

    /**
     * Keeps the lock, once its last release comes, until {@code minHoldNanos} after the grant
     * (the latest of several such wishes): a release before then keeps it in Redis, held by
     * nobody, for what is left.
     *
     * @param minHoldNanos the minimum hold, counted from when the acquisition was sent
     */
    public void keepAtLeast(long minHoldNanos) {
        keepUntilNanos = Math.max(keepUntilNanos, grantedNanos + minHoldNanos);
    }

    /**
     * @param nowNanos now, on the lease keeper's clock
     * @return how long the lock must still be kept after a release now, in ms; 0 when it may go
     */
    public long keepLeftMillis(long nowNanos) {
        long left = keepUntilNanos - nowNanos;
        // Rounded up: a minimum hold must not end a fraction of a millisecond early.
        return left <= 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(left + TimeUnit.MILLISECONDS.toNanos(1) - 1);
    }


    /**
     * @param observation what records this hold's life from now on
     */
    public void observe(HoldObservation observation) {
        this.observation = observation;
    }

    /**
     * Tells the observation the hold is lost.
     */
    void observeLoss() {
        observation.lost();
    }

    /**
     * Tells the observation the hold ended, once whatever calls it.
     */
    public void observeEnd() {
        if (observationEnded.compareAndSet(false, true)) {
            observation.ended();
        }
    }

    public String name() {
        return name;
    }

    /**
     * @return how messages name the lock, such as {@code read lock 'stock:1'}
     */
    public String description() {
        return description;
    }

    public HoldKeys keys() {
        return keys;
    }

    public String owner() {
        return owner;
    }

    /**
     * @return the owner (an exclusive lock) or its hold field (read/write)
     */
    public String field() {
        return field;
    }

    /**
     * @return "" (an exclusive lock), or the owner's own expiry field (read/write)
     */
    public String expiryField() {
        return expiryField;
    }

    public long fencingToken() {
        return fencingToken;
    }

    public long leaseMillis() {
        return leaseMillis;
    }

    public boolean watchdog() {
        return watchdog;
    }

    /**
     * @return how often the owner holds it now
     */
    public int count() {
        return count.get();
    }

    /**
     * @param holds how often the owner holds it from now on
     */
    public void countIs(int holds) {
        count.set(holds);
    }

    /**
     * @return true once a majority of masters knows the token (RedLock), or where nothing needs
     *         to be told (one server)
     */
    public boolean isTokenPublished() {
        return tokenPublished;
    }

    public void tokenPublished() {
        tokenPublished = true;
    }

    public boolean isLost() {
        return lost;
    }

    void markLost() {
        lost = true;
    }

    /**
     * @return true once its final release was sent: a renewal that finds it gone then saw the
     *         release, not a loss, whatever the release's answer
     */
    boolean isReleasing() {
        return releasing;
    }

    void releasing() {
        releasing = true;
    }

    /**
     * @return until when, on the lease keeper's clock, Redis keeps this hold at least: its lease
     *         counted from the last request that set or renewed it, which Redis ran no earlier
     */
    public long heldAtLeastUntilNanos() {
        return lastConfirmedNanos + TimeUnit.MILLISECONDS.toNanos(leaseMillis);
    }

    /**
     * Makes everything this process sends for the hold but its last release wait for {@code
     * settled}: a grant trusted on hearing it, whose confirmation is under way. A command sent
     * before it was answered could overtake it (a confirmation retried after {@code NOSCRIPT})
     * and find the hold missing; the last release names the grant, and Redis takes it either way.
     *
     * @param settled completes once the confirmation was answered, or failed
     */
    public void confirmedBy(CompletableFuture<Void> settled) {
        confirmation = settled;
    }

    /**
     * @return completes once Redis confirmed the hold, or failed to; completed for any hold but a
     *         grant trusted on hearing it ({@link #confirmedBy})
     */
    public CompletableFuture<Void> confirmation() {
        return confirmation;
    }

    /**
     * Limits how long this hold is known to last to {@code untilNanos}, until Redis confirms it:
     * a grant trusted on hearing it, before its confirmation.
     *
     * @param untilNanos on the lease keeper's clock
     */
    public void heldOnlyUntil(long untilNanos) {
        lastConfirmedNanos = Math.min(lastConfirmedNanos, untilNanos - TimeUnit.MILLISECONDS.toNanos(leaseMillis));
    }

    long lastConfirmedNanos() {
        return lastConfirmedNanos;
    }

    void confirmedAt(long nanos) {
        lastConfirmedNanos = Math.max(lastConfirmedNanos, nanos);
    }

    @Override
    public String toString() {
        return "hold of the " + description + " (" + field + ", fencing token " + fencingToken + ")";
    }
}
