package dev.locksmith.internal.cdi;

import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.internal.manager.LockStatistics;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;

/**
 * MicroProfile Health readiness: UP while Redis answers a PING within a second, DOWN (with the
 * reason) while it does not, and while the manager has not connected yet (Redis was down at
 * startup and the manager keeps trying in the background). Any application using the extension
 * on a server with MicroProfile Health gets it at {@code /health/ready}.
 */
final class RedisReadinessCheck implements HealthCheck {
    static final String NAME = "locksmith-redis";
    private static final Duration PATIENCE = Duration.ofSeconds(1);

    private final LockManagerLifecycle lifecycle;

    /**
     * @param lifecycle where the application's manager is
     */
    RedisReadinessCheck(LockManagerLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    @Override
    public HealthCheckResponse call() {
        try {
            DefaultLockManager manager = lifecycle.manager().connectedOrFail();
            String redis = manager.checkReachable(PATIENCE);
            LockStatistics statistics = manager.statistics();
            return new HealthCheckResponse(NAME, Status.UP, Optional.of(Map.of("redis", redis,
                    "locksHeld", (long) statistics.holds(), "leasesRenewedByWatchdog", (long) statistics.renewed(),
                    "leasesLostSinceStart", statistics.leasesLost(), "locksAwaited", (long) statistics.contendedNames(),
                    "releaseChannels", (long) statistics.subscribedChannels(),
                    "threadsAsleepWaitingForLocks", (long) statistics.sleepingWaiters())));
        } catch (RuntimeException e) {
            // The constructor, not HealthCheckResponse.named(): it needs no implementation's provider.
            return new HealthCheckResponse(NAME, Status.DOWN, Optional.of(Map.of("error", String.valueOf(e.getMessage()))));
        }
    }
}
