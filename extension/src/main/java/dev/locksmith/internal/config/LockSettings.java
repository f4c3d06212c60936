package dev.locksmith.internal.config;

import dev.locksmith.RedisMode;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;

/**
 * The validated settings of one {@link dev.locksmith.LockManager}.
 *
 * @param uris              where Redis is
 * @param mode              how to reach it
 * @param keyPrefix         the start of every key written
 * @param lease             the watchdog's lease, renewed every third of it
 * @param commandTimeout    how long one Redis command may take
 * @param syncReplicas      replicas that must acknowledge an acquisition ({@code WAIT}), 0 for none
 * @param syncTimeout       how long to wait for them
 * @param watchdogScheduler the container's scheduler for lease renewal, or null to use a private one
 * @param fenceLifetime     how long a fencing counter lives from its seeding
 * @param threadFactory     where Redis I/O threads come from (a container's ManagedThreadFactory), or null
 * @param telemetry         what the manager tells operators: metrics, spans, Flight Recorder, its identity in Redis
 */
public record LockSettings(List<RedisURI> uris, RedisMode mode, String keyPrefix, Duration lease,
                           Duration commandTimeout, int syncReplicas, Duration syncTimeout,
                           ScheduledExecutorService watchdogScheduler, Duration fenceLifetime,
                           ThreadFactory threadFactory, TelemetrySettings telemetry) {
}
