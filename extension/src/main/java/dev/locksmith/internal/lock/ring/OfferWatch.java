package dev.locksmith.internal.lock.ring;


/**
 * The offer of one lock that this process's latest release made and that its releaser watches
 * ({@link OfferDesk#watch}), with at most one check of it scheduled at a time however often the
 * lock is released: a busy lock would otherwise keep one scheduled task per release, and wake the
 * scheduler's thread on every one of them. A newer release replaces the offer watched: this
 * process held the lock again since, so the older offer was taken.
 */
public final class OfferWatch {
    /**
     * What a scheduled check finds: the offer watched, the threads here that released it (null
     * when none of them waited for the lock), and how long it has still to stand before it is due.
     */
    public record Due(long token, long number, ProcessRing releaser, long waitNanos) {
    }

    private long token;
    private long number;
    private ProcessRing releaser;
    private long since;
    private boolean watching;
    private boolean scheduled;

    /**
     * Watches the offer of {@code token} from {@code now} on.
     *
     * @param offerReleaser the threads here acquiring the lock when it was released, or null
     * @return true when no check is scheduled: the caller schedules one, for the whole watch
     */
    public synchronized boolean watch(long offerToken, long offerNumber, ProcessRing offerReleaser, long now) {
        token = offerToken;
        number = offerNumber;
        releaser = offerReleaser;
        since = now;
        watching = true;
        if (scheduled) {
            return false;
        }
        scheduled = true;
        return true;
    }

    /**
     * Watches where a check passed the offer it found due, unless a newer release here made an
     * offer meanwhile: that one is watched instead, and the older went to this process.
     *
     * @return true when the caller schedules the check
     */
    public synchronized boolean follow(long offerToken, long offerNumber, ProcessRing offerReleaser, long now) {
        return !watching && watch(offerToken, offerNumber, offerReleaser, now);
    }

    /**
     * A scheduled check runs: the offer watched is due when it stood for {@code watchNanos}; one
     * that is not due yet keeps the check scheduled, for the caller to run again after
     * {@link Due#waitNanos()}.
     *
     * @return the offer watched, or null when none is (the check ends)
     */
    public synchronized Due due(long now, long watchNanos) {
        if (!watching) {
            scheduled = false;
            return null;
        }
        long wait = since + watchNanos - now;
        if (wait > 0) {
            return new Due(token, number, releaser, wait);
        }
        watching = false;
        scheduled = false;
        return new Due(token, number, releaser, 0);
    }

    /**
     * Stops watching, because the releaser closes: the caller passes the offer on now.
     *
     * @return the offer watched, or null when none is
     */
    synchronized Due withdraw() {
        if (!watching) {
            return null;
        }
        watching = false;
        return new Due(token, number, releaser, 0);
    }

    /**
     * @return true when no offer is watched and no check is scheduled: nothing is lost by forgetting this watch
     */
    public synchronized boolean isIdle() {
        return !watching && !scheduled;
    }

    /**
     * The check could not be scheduled (the scheduler stopped): the next watch schedules one.
     */
    public synchronized void unscheduled() {
        scheduled = false;
    }
}
