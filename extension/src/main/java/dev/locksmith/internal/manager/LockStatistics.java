package dev.locksmith.internal.manager;

/**
 * What one manager has under way now, as its readiness check reports it.
 *
 * @param subscribedChannels release channels this process listens on
 * @param contendedNames     locks some thread of this manager is acquiring
 * @param holds              holds this manager has
 * @param renewed            holds the watchdog renews
 * @param leasesLost         holds found lost since the manager started
 */
public record LockStatistics(int subscribedChannels, int contendedNames, int holds, int renewed, long leasesLost) {

    /**
     * @return what is under way, as leak checks read it: the lost-lease count is history, not state
     */
    @Override
    public String toString() {
        return "channels=" + subscribedChannels + ", contended names=" + contendedNames + ", holds=" + holds
                + ", renewed=" + renewed;
    }
}
