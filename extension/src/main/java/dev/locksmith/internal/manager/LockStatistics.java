package dev.locksmith.internal.lock;

/**
 * What one manager has under way now: for health data, gauges, and leak checks.
 *
 * @param subscribedChannels release channels this process listens on
 * @param contendedNames     locks some thread of this manager is acquiring
 * @param holds              holds this manager has
 * @param renewed            holds the watchdog renews
 * @param leasesLost         holds found lost since the manager started
 * @param handOvers          releases that passed a lock straight to another thread of this
 *                           process since the manager started
 */
public record LockStatistics(int subscribedChannels, int contendedNames, int holds, int renewed, long leasesLost,
                             long handOvers) {

    /**
     * @return what is under way, for leak checks: the lost-lease and hand-over counts are history, not state
     */
    @Override
    public String toString() {
        return "channels=" + subscribedChannels + ", contended names=" + contendedNames + ", holds=" + holds
                + ", renewed=" + renewed;
    }
}
