package dev.locksmith.internal.lease;

/**
 * What this process knows of one hold: whose it is, which hash field counts it, its fencing
 * token, its lease, and whether it is still held, being released, or lost. The owner id is
 * fixed at acquisition, so a release from another thread (a transaction completing elsewhere)
 * releases the right hold.
 */
public final class Hold {
    private final String name;
    private final String description;
    private final HoldKeys keys;
    private final String owner;
    private final String field;
    private final String expiryField;
    private final long fencingToken;
    private final long leaseMillis;
    private final boolean watchdog;
    private volatile boolean lost;
    private volatile boolean releasing;
    private volatile long lastConfirmedNanos;

    /**
     * @param name          the lock's name
     * @param description   how messages name the lock, such as {@code read lock 'stock:1'}
     * @param keys          where the hold lives
     * @param owner         the owner id
     * @param field         the hash field that counts the owner's holds
     * @param expiryField   the hash field with the owner's own expiry, or "" when holds share the hash's lease
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
        this.lastConfirmedNanos = sentAtNanos;
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
     * @return the hash field that counts this hold
     */
    public String field() {
        return field;
    }

    /**
     * @return the hash field with this owner's own expiry, or "" when the hold shares the hash's lease
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

    public boolean isLost() {
        return lost;
    }

    void markLost() {
        lost = true;
    }

    /**
     * @return true while its final release is on its way to Redis: a renewal that finds it gone
     *         then saw the release, not a loss
     */
    boolean isReleasing() {
        return releasing;
    }

    void releasing(boolean underway) {
        releasing = underway;
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
