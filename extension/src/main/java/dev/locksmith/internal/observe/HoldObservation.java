package dev.locksmith.internal.observe;

/**
 * One hold of a lock, from its grant to its release; {@link #lost()} may come before the end.
 */
public interface HoldObservation {
    /** Nothing to record. */
    HoldObservation NONE = new HoldObservation() {
        @Override
        public void lost() {
        }

        @Override
        public void ended() {
        }
    };

    /**
     * The lease ran out or the lock was taken away while it was held.
     */
    void lost();

    /**
     * The hold was released, or its holder was told of its loss; called once.
     */
    void ended();
}
