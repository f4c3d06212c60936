package dev.locksmith.internal.lock;

/**
 * What one manager has under way now: for health data, gauges, and leak checks.
 *
 * @param subscribedChannels release channels this process listens on
 * @param contendedNames     locks some thread of this manager is acquiring
 * @param holds              holds this manager has
 * @param renewed            holds the watchdog renews
 */
public record LockStatistics(int subscribedChannels, int contendedNames, int holds, int renewed) {

    @Override
    public String toString() {
        return "channels=" + subscribedChannels + ", contended names=" + contendedNames + ", holds=" + holds
                + ", renewed=" + renewed;
    }
}
