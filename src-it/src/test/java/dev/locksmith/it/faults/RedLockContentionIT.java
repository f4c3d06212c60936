package dev.locksmith.it.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.testing.IndependentMasters;
import dev.locksmith.testing.JavaProcess;
import dev.locksmith.testing.LocalRedisServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * RedLock over three masters keeps mutual exclusion under contention: two JVMs of eight threads
 * each make 10 000 acquisitions of one lock around an unguarded read-modify-write.
 */
@Isolated // its timings (failovers, leases, a timed random run) are measured with nothing else running
class RedLockContentionIT {

    @Test
    void tenThousandContendedAcquisitionsFromTwoJvmsLoseNoUpdate() {
        int threads = 8;
        int iterations = 625; // 2 JVMs x 8 threads x 625 = 10 000
        try (IndependentMasters masters = IndependentMasters.start(3);
             LocalRedisServer counter = LocalRedisServer.start()) {
            String[] args = {counter.uri(), masters.uris(), "redlocked", Integer.toString(threads),
                    Integer.toString(iterations)};
            try (JavaProcess first = JavaProcess.start(RedLockCountingWorker.class, args);
                 JavaProcess second = JavaProcess.start(RedLockCountingWorker.class, args)) {
                assertThat(first.awaitLine("DONE", Duration.ofMinutes(5))).isEqualTo("DONE");
                assertThat(second.awaitLine("DONE", Duration.ofMinutes(5))).isEqualTo("DONE");
            }

            assertThat(counter.command("GET", "counter")).isEqualTo("10000");
            @SuppressWarnings("unchecked")
            List<String> tokens = (List<String>) dev.locksmith.testing.RespClient.call(counter.port(), "LRANGE", "tokens", "0", "-1");
            List<Long> values = tokens.stream().map(Long::parseLong).toList();
            for (int i = 1; i < values.size(); i++) {
                assertThat(values.get(i)).as("token %d", i).isGreaterThan(values.get(i - 1));
            }
        }
    }
}
