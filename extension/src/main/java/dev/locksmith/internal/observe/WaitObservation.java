package dev.locksmith.internal.observe;

/**
 * One thread's wait for a lock, from the call to its outcome; exactly one outcome is reported.
 */
public interface WaitObservation {
    /** Nothing to record. */
    WaitObservation NONE = new WaitObservation() {
        @Override
        public void acquired(long fencingToken) {
        }

        @Override
        public void timedOut() {
        }

        @Override
        public void interrupted() {
        }

        @Override
        public void failed(Throwable failure) {
        }
    };

    /**
     * @param fencingToken the token of the hold, or -1 for a re-entry or a lock without one
     */
    void acquired(long fencingToken);

    void timedOut();

    /**
     * The wait ended without the lock and its call skips its work ({@code WhenHeld.SKIP}): not a
     * failure, so not a timeout either.
     */
    default void skipped() {
        timedOut();
    }

    void interrupted();

    void failed(Throwable failure);
}
