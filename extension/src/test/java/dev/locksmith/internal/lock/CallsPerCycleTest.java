package dev.locksmith.internal.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.RedisServerExtension;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Redis work of an uncontended lock+unlock cycle, counted by Redis itself
 * ({@code INFO commandstats}), which no machine load can change: the budgets that
 * {@code docs/BENCHMARKS.md} reports, held here on every build.
 */
class CallsPerCycleTest {
    private static final int CYCLES = 200;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aReentrantCycleIsTwoScriptsOfSevenCallsInAll() {
        Map<String, Long> calls = countCycles(locks -> locks.getLock("budget-reentrant"));

        assertThat(calls.get("evalsha")).as("one script to acquire, one to release").isEqualTo(2L * CYCLES);
        assertThat(total(calls)).as("calls, scripts and their commands").isLessThanOrEqualTo(7L * CYCLES);
    }

    @Test
    void aWriteCycleIsTenCallsAndTheLastReleaseDeletesTheHash() {
        Map<String, Long> calls = countCycles(locks -> locks.getReadWriteLock("budget-write").writeLock());

        assertThat(total(calls)).isLessThanOrEqualTo(10L * CYCLES);
        assertThat(calls.get("del")).as("one DEL of the emptied hash per release").isEqualTo((long) CYCLES);
        assertThat(calls).doesNotContainKey("hdel");
    }

    @Test
    void aReadCycleIsTenCalls() {
        Map<String, Long> calls = countCycles(locks -> locks.getReadWriteLock("budget-read").readLock());

        assertThat(total(calls)).isLessThanOrEqualTo(10L * CYCLES);
    }

    private static Map<String, Long> countCycles(java.util.function.Function<LockManager, DistributedLock> lockOf) {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock lock = lockOf.apply(locks);
            lock.lock(); // the first cycle loads the scripts (NOSCRIPT, then EVAL)
            lock.unlock();
            redis.node().command("CONFIG", "RESETSTAT");
            for (int i = 0; i < CYCLES; i++) {
                lock.lock();
                lock.unlock();
            }
            return commandCalls();
        }
    }

    private static Map<String, Long> commandCalls() {
        Map<String, Long> calls = new HashMap<>();
        for (String line : redis.node().command("INFO", "commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_")) {
                String command = line.substring("cmdstat_".length(), line.indexOf(':'));
                calls.put(command, Long.parseLong(line.replaceAll("^[a-z_|]*:calls=(\\d+),.*", "$1")));
            }
        }
        // The counting itself, and the manager's own periodic description of itself, are not cycles.
        calls.remove("info");
        calls.remove("config|resetstat");
        return calls;
    }

    private static long total(Map<String, Long> calls) {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }
}
