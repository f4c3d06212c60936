package dev.locksmith.internal.lock;

/**
 * The offer of one lock that this process's latest release made and that its releaser watches
 * ({@link OfferDesk#watch}), with at most one check of it scheduled at a time however often the
 * lock is released: a busy lock would otherwise keep one scheduled task per release, and wake the
 * scheduler's thread on every one of them. A newer release replaces the offer watched: this
 * process held the lock again since, so the older offer was taken.
 */
final class OfferWatch {
    /** What a scheduled check finds: the offer watched, and how long it has still to stand before it is due. */
    record Due(long token, long number, long waitNanos) {
    }

    private long token;
    private long number;
    private long since;
    private boolean watching;
    private boolean scheduled;

    /**
     * Watches the offer of {@code token} from {@code now} on.
     *
     * @return true when no check is scheduled: the caller schedules one, for the whole watch
     */
    synchronized boolean watch(long offerToken, long offerNumber, long now) {
        token = offerToken;
        number = offerNumber;
        since = now;
        watching = true;
        if (scheduled) {
            return false;
        }
        scheduled = true;
        return true;
    }

    /**
     * A scheduled check runs: the offer watched is due when it stood for {@code watchNanos}; one
     * that is not due yet keeps the check scheduled, for the caller to run again after
     * {@link Due#waitNanos()}.
     *
     * @return the offer watched, or null when none is (the check ends)
     */
    synchronized Due due(long now, long watchNanos) {
        if (!watching) {
            scheduled = false;
            return null;
        }
        long wait = since + watchNanos - now;
        if (wait > 0) {
            return new Due(token, number, wait);
        }
        watching = false;
        scheduled = false;
        return new Due(token, number, 0);
    }

    /**
     * The check could not be scheduled (the scheduler stopped): the next watch schedules one.
     */
    synchronized void unscheduled() {
        scheduled = false;
    }
}
