package dev.locksmith.internal.lock;

/**
 * What this process knows of one hold: whose it is, which hash field counts it, its fencing
 * token, its lease, and whether the watchdog found it lost; the hold count lives in Redis only.
 * The owner id is fixed at acquisition, so a release from another thread (a transaction
 * completing elsewhere) releases the right hold.
 */
public final class Hold {
    private final String name;
    private final LockKeys keys;
    private final String owner;
    private final String field;
    private final String expiryField;
    private final long fencingToken;
    private final long leaseMillis;
    private final boolean watchdog;
    private volatile boolean lost;
    private volatile long lastConfirmedNanos;

    Hold(String name, LockKeys keys, String owner, String field, String expiryField, long fencingToken,
         long leaseMillis, boolean watchdog) {
        this.name = name;
        this.keys = keys;
        this.owner = owner;
        this.field = field;
        this.expiryField = expiryField;
        this.fencingToken = fencingToken;
        this.leaseMillis = leaseMillis;
        this.watchdog = watchdog;
        this.lastConfirmedNanos = System.nanoTime();
    }

    public String name() {
        return name;
    }

    public LockKeys keys() {
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

    /**
     * Records that Redis no longer has this hold; the holder learns it on its next unlock.
     */
    public void markLost() {
        lost = true;
    }

    /**
     * @return when Redis last confirmed this hold (acquisition or renewal), in {@link System#nanoTime()}
     */
    public long lastConfirmedNanos() {
        return lastConfirmedNanos;
    }

    /**
     * @param nanos when Redis confirmed the hold, in {@link System#nanoTime()}
     */
    public void confirmedAt(long nanos) {
        lastConfirmedNanos = nanos;
    }

    @Override
    public String toString() {
        return "hold of lock '" + name + "' (" + field + ", token " + fencingToken + ")";
    }
}
