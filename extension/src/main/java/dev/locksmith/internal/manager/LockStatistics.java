package dev.locksmith.internal.manager;

/**
 * What one manager has under way now, as its readiness check reports it.
 *
 * @param subscribedChannels release channels this process listens on
 * @param contendedNames     locks some thread of this manager is acquiring
 * @param holds              holds this manager has
 * @param renewed            holds the watchdog renews
 * @param leasesLost         holds found lost since the manager started
 * @param sleepingWaiters    threads of this manager asleep now waiting for a lock, in a local line
 *                           or for a message from Redis
 */
public record LockStatistics(int subscribedChannels, int contendedNames, int holds, int renewed, long leasesLost,
                             int sleepingWaiters) {

    /**
     * @return what is under way, as leak checks read it: the lost-lease count is history, not state
     */
    @Override
    public String toString() {
        return "channels=" + subscribedChannels + ", contended names=" + contendedNames + ", holds=" + holds
                + ", renewed=" + renewed;
    }
}
