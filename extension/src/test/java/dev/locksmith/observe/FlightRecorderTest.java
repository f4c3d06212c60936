package dev.locksmith.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Flight Recorder events, with no dependency and no configuration: a recording that enables
 * them sees each wait, hold and loss, with the lock's name, kind and fencing token.
 */
class FlightRecorderTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aRecordingShowsWaitsHoldsAndLosses() throws Exception {
        Path dump = Files.createTempFile("locksmith", ".jfr");
        try (Recording recording = new Recording();
             LockManager locks = Locksmith.builder().redisUri(redis.uri()).leaseTime(Duration.ofMillis(600)).build();
             LockManager operator = Locksmith.builder().redisUri(redis.uri()).build()) {
            recording.enable("dev.locksmith.LockWait").withThreshold(Duration.ZERO);
            recording.enable("dev.locksmith.LockHeld").withThreshold(Duration.ZERO);
            recording.enable("dev.locksmith.LockLost");
            recording.start();

            DistributedLock ledger = locks.getLock("ledger");
            try (HeldByAnotherThread holder = HeldByAnotherThread.hold(ledger)) {
                assertThat(ledger.tryLock(30, TimeUnit.MILLISECONDS)).as("held by the other thread").isFalse();
            }

            DistributedLock doomed = locks.getLock("doomed");
            doomed.lock();
            assertThat(operator.getLock("doomed").forceUnlock()).isTrue();
            Await.until("the loss was noticed", Duration.ofSeconds(5), () -> {
                try {
                    doomed.fencingToken();
                    return false;
                } catch (LockException e) {
                    return true;
                }
            });
            assertThatThrownBy(doomed::unlock).isInstanceOf(LockException.class);
            recording.stop();
            recording.dump(dump);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(dump);
        Files.delete(dump);

        assertThat(events).anySatisfy(event -> {
            assertThat(event.getEventType().getName()).isEqualTo("dev.locksmith.LockWait");
            assertThat(event.getString("lockName")).isEqualTo("ledger");
            assertThat(event.getString("outcome")).isEqualTo("timeout");
            assertThat(event.getString("kind")).isEqualTo("reentrant");
        });
        assertThat(events).anySatisfy(event -> {
            assertThat(event.getEventType().getName()).isEqualTo("dev.locksmith.LockWait");
            assertThat(event.getString("outcome")).isEqualTo("acquired");
            assertThat(event.getLong("fencingToken")).isPositive();
        });
        assertThat(events).anySatisfy(event -> {
            assertThat(event.getEventType().getName()).isEqualTo("dev.locksmith.LockHeld");
            assertThat(event.getString("lockName")).isEqualTo("ledger");
            assertThat(event.getBoolean("lost")).isFalse();
        });
        assertThat(events).anySatisfy(event -> {
            assertThat(event.getEventType().getName()).isEqualTo("dev.locksmith.LockLost");
            assertThat(event.getString("lockName")).isEqualTo("doomed");
        });
        assertThat(events).anySatisfy(event -> {
            assertThat(event.getEventType().getName()).isEqualTo("dev.locksmith.LockHeld");
            assertThat(event.getString("lockName")).isEqualTo("doomed");
            assertThat(event.getBoolean("lost")).isTrue();
        });
    }
}
