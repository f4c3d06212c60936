package dev.locksmith.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.jfr.FlightRecorderObserver;
import dev.locksmith.internal.observe.LockLabel;
import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Flight Recorder events, with no dependency and no configuration: a recording that enables
 * them sees each wait, hold, loss, hand-over, turn and failed release, with the lock's name, kind
 * and fencing token.
 */
class FlightRecorderTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aRecordingShowsWaitsHoldsAndLosses() throws Exception {
        Path dump = Files.createTempFile("locksmith", ".jfr");
        CountDownLatch lossCommitted = new CountDownLatch(1);
        try (Recording recording = new Recording();
             RecordingStream losses = new RecordingStream();
             LockManager locks = Locksmith.builder().redisUri(redis.uri()).leaseTime(Duration.ofMillis(600)).build();
             LockManager operator = Locksmith.builder().redisUri(redis.uri()).build()) {
            recording.enable("dev.locksmith.LockWait").withThreshold(Duration.ZERO);
            recording.enable("dev.locksmith.LockHeld").withThreshold(Duration.ZERO);
            recording.enable("dev.locksmith.LockLost");
            recording.start();
            losses.enable("dev.locksmith.LockLost");
            losses.onEvent("dev.locksmith.LockLost", event -> lossCommitted.countDown());
            losses.startAsync();

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
            // The watchdog marks the hold lost before it commits LockLost, so the holder can see
            // the loss while the event is still to come; stopping now could miss it.
            assertThat(lossCommitted.await(10, TimeUnit.SECONDS)).as("LockLost committed").isTrue();
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

    @Test
    void aRecordingShowsHandOversTurnsAndFailedReleases() throws Exception {
        LockObserver observer = new FlightRecorderObserver();
        LockLabel stock = new LockLabel("stock:7", "fair", "stock:*");
        Path dump = Files.createTempFile("locksmith", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable("dev.locksmith.LockHandOver");
            recording.enable("dev.locksmith.LockYield");
            recording.enable("dev.locksmith.LockReleaseFailed");
            recording.start();

            observer.handedOver(stock);
            observer.yielded(stock);
            observer.releaseFailed(stock, "NOPERM");
            recording.stop();
            recording.dump(dump);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(dump);
        Files.delete(dump);

        assertThat(events).filteredOn(event -> event.getEventType().getName().equals("dev.locksmith.LockHandOver"))
                .singleElement().satisfies(event -> assertThat(lockOf(event)).isEqualTo(stock));
        assertThat(events).filteredOn(event -> event.getEventType().getName().equals("dev.locksmith.LockYield"))
                .singleElement().satisfies(event -> assertThat(lockOf(event)).isEqualTo(stock));
        assertThat(events).filteredOn(event -> event.getEventType().getName().equals("dev.locksmith.LockReleaseFailed"))
                .singleElement().satisfies(event -> {
                    assertThat(lockOf(event)).isEqualTo(stock);
                    assertThat(event.getString("errorKind")).isEqualTo("NOPERM");
                });
    }

    @Test
    void everyEventNamesTheThreadWhoseCallItIsAndAPlatformThreadKeepsItsStackTrace() throws Exception {
        LockObserver observer = new FlightRecorderObserver();
        LockLabel stock = new LockLabel("warehouse-east:stock:7", "reentrant", "warehouse-east:stock:{sku}");
        Path dump = Files.createTempFile("locksmith", ".jfr");
        try (Recording recording = new Recording()) {
            for (String name : List.of("LockWait", "LockHeld", "LockLost", "LockSkipped", "LockHandOver", "LockYield",
                    "LockReleaseFailed", "FencedWriteRefused")) {
                recording.enable("dev.locksmith." + name).withThreshold(Duration.ZERO).withStackTrace();
            }
            recording.start();

            observer.waitStarted(stock, false).acquired(41);
            var hold = observer.holdStarted(stock, 41);
            hold.lost();
            hold.ended();
            observer.skipped(stock);
            observer.handedOver(stock);
            observer.yielded(stock);
            observer.releaseFailed(stock, "transient");
            observer.fenceRefused(stock, 41, 42);
            recording.stop();
            recording.dump(dump);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(dump);
        Files.delete(dump);

        assertThat(events).hasSize(8).allSatisfy(event -> {
            assertThat(event.getLong("callerThreadId")).isEqualTo(Thread.currentThread().getId());
            assertThat(event.getString("callerThreadName")).isEqualTo(Thread.currentThread().getName());
            assertThat(event.getBoolean("callerVirtual")).isFalse();
            assertThat(event.getThread().getJavaThreadId()).as("a platform thread commits its own events")
                    .isEqualTo(Thread.currentThread().getId());
            assertThat(event.getString("lockName")).isEqualTo("warehouse-east:stock:7");
            assertThat(event.getString("template")).isEqualTo("warehouse-east:stock:{sku}");
        });
        assertThat(events).filteredOn(event -> event.getEventType().getName().equals("dev.locksmith.LockWait"))
                .singleElement().satisfies(event -> {
                    assertThat(event.getString("kind")).isEqualTo("reentrant");
                    assertThat(event.getString("outcome")).isEqualTo("acquired");
                    assertThat(event.getLong("fencingToken")).isEqualTo(41);
                    assertThat(event.getString("callSite")).as("only a virtual thread's event needs it").isNull();
                    assertThat(event.getStackTrace().getFrames()).anySatisfy(frame -> assertThat(
                            frame.getMethod().getName()).isEqualTo(
                            "everyEventNamesTheThreadWhoseCallItIsAndAPlatformThreadKeepsItsStackTrace"));
                });
        assertThat(events).filteredOn(event -> event.getEventType().getName().equals("dev.locksmith.FencedWriteRefused"))
                .singleElement().satisfies(event -> {
                    assertThat(event.getLong("fencingToken")).isEqualTo(41);
                    assertThat(event.getLong("databaseToken")).isEqualTo(42);
                    assertThat(event.getStackTrace()).isNotNull();
                });
    }

    private static LockLabel lockOf(RecordedEvent event) {
        return new LockLabel(event.getString("lockName"), event.getString("kind"), event.getString("template"));
    }
}
