package dev.locksmith.vthreads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedReadWriteLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.TestConfig;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Thousands of virtual threads on two managers contend for a few locks of each kind, with a Flight
 * Recorder recording of Locksmith's events and of every pinned virtual thread running: the locks exclude,
 * the fair lock serves in queue order, no update is lost, every {@code unlock()} from the holding virtual
 * thread is accepted, nothing is left in Redis, and no virtual thread is pinned in Locksmith's frames.
 */
class VirtualThreadLockingTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final int THREADS = 2_000;
    /** Virtual threads that use each path first, together, before the count starts. */
    private static final int FIRST_USERS = 16;
    private static final int NAMES = 4;
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    // Names as long as real ones: Flight Recorder pools strings of 17 characters or more, and pooling is
    // where a virtual thread that writes an event pins.
    private static final String FIFO = "inventory:fair:first-come";
    private static final String FIRST_USE = "inventory:first-use:warehouse";
    /** How long each first user waits for a lock held throughout. */
    private static final Duration WAIT_IN_VAIN = Duration.ofMillis(200);

    private LockManager left;
    private LockManager right;
    private PinRecording recording;

    @BeforeAll
    static void onJava21OrLater() {
        assertThat(Runtime.version().feature()).as("these tests need virtual threads: run them on Java 21 or later"
                + " (JAVA21_HOME, or -Dvthreads.jdk)").isGreaterThanOrEqualTo(21);
    }

    @BeforeEach
    void twoManagers() {
        left = Locksmith.builder().redisUri(redis.uri()).build();
        right = Locksmith.builder().redisUri(redis.uri()).build();
    }

    @AfterEach
    void closeAll() {
        try (LockManager l = left; LockManager r = right) {
            if (recording != null) {
                recording.close();
            }
        }
    }

    /**
     * Starts the recording, runs the test's path on a few virtual threads at once, then counts what the
     * recording shows from that moment on. The first use of a class or of a call site pins: while one virtual
     * thread loads or initializes a class, or links a lambda or method reference, every other one that needs
     * it waits for the JVM's monitor, pinned ("Contended monitor enter", "Freeze or preempt failed"), in
     * whatever Locksmith frame first reached it, and Java 25 does not always say why. That happens once per
     * class or call site and process, not per call, so it is kept out of the count.
     *
     * <p>The first use covers the waiting path as well as the taking path, on cue rather than by chance:
     * while this thread holds {@code held}, each first user waits in vain for {@code waitedFor} (so each
     * asks, subscribes, asks again, sleeps and gives up at its deadline, in this process's line and from the
     * other manager); then, with {@code held} released, they run {@code firstUse} together. The recording is
     * on during the first use so that the classes only a recorded call needs (its events, its writer) are
     * loaded then too. What the recording shows from then on is what every call costs.
     */
    private void recordAfterFirstUse(DistributedLock held, IntFunction<DistributedLock> waitedFor,
                                     VirtualThreadCrowd.Work firstUse) throws InterruptedException {
        recording = PinRecording.start();
        held.lock();
        try {
            VirtualThreadCrowd.run(FIRST_USERS, DEADLINE, i -> assertThat(waitedFor.apply(i)
                    .tryLock(WAIT_IN_VAIN.toMillis(), TimeUnit.MILLISECONDS))
                    .as("first user " + i + " took " + held.getName() + " while this thread held it").isFalse());
        } finally {
            held.unlock();
        }
        VirtualThreadCrowd.run(FIRST_USERS, DEADLINE, firstUse);
        recording.countFromNow();
    }

    @Test
    void reentrantLocksExcludeAcrossTwoManagersWithoutPinning() throws Exception {
        Exclusion[] guarded = guards();
        recordAfterFirstUse(left.getLock(FIRST_USE), i -> manager(i).getLock(FIRST_USE),
                i -> takeAndRelease(left.getLock(FIRST_USE)));

        VirtualThreadCrowd.run(THREADS, DEADLINE, i -> {
            DistributedLock lock = manager(i).getLock("inventory:reentrant:warehouse-" + i % NAMES);
            lock.lock();
            try {
                lock.lock(); // re-entered by the same virtual thread
                try {
                    guarded[i % NAMES].write();
                } finally {
                    lock.unlock();
                }
            } finally {
                lock.unlock();
            }
        });

        assertExcludedAndCounted(guarded, THREADS);
        assertNoPinsFromLocksmith("inventory:reentrant:");
    }

    @Test
    void fairLocksExcludeAndServeVirtualThreadsInTheOrderTheyQueued() throws Exception {
        Exclusion[] guarded = guards();
        recordAfterFirstUse(left.getFairLock(FIRST_USE), i -> manager(i).getFairLock(FIRST_USE),
                i -> takeAndRelease(left.getFairLock(FIRST_USE)));

        VirtualThreadCrowd.run(THREADS, DEADLINE, i -> {
            DistributedLock lock = manager(i).getFairLock("inventory:fair:warehouse-" + i % NAMES);
            lock.lock();
            try {
                guarded[i % NAMES].write();
            } finally {
                lock.unlock();
            }
        });
        assertExcludedAndCounted(guarded, THREADS);

        int waiters = 24;
        List<Integer> served = new CopyOnWriteArrayList<>();
        DistributedLock holder = left.getFairLock(FIFO);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Future<?> holding = threads.submit(() -> {
                holder.lock();
                try {
                    held.countDown();
                    release.await();
                } finally {
                    holder.unlock();
                }
                return null;
            });
            assertThat(held.await(10, TimeUnit.SECONDS)).as("the holder has the fair lock").isTrue();
            Future<?>[] waiting = new Future<?>[waiters];
            for (int i = 0; i < waiters; i++) {
                int place = i;
                waiting[i] = threads.submit(() -> {
                    DistributedLock lock = manager(place).getFairLock(FIFO);
                    lock.lock();
                    try {
                        served.add(place);
                    } finally {
                        lock.unlock();
                    }
                    return null;
                });
                Await.until("waiter " + i + " is queued", Duration.ofSeconds(20),
                        () -> queueLength(FIFO) == place + 1);
            }

            release.countDown();
            holding.get(20, TimeUnit.SECONDS);
            for (Future<?> waiter : waiting) {
                waiter.get(20, TimeUnit.SECONDS);
            }
        }

        assertThat(served).as("the longest-waiting virtual thread of either manager goes next")
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, waiters).boxed().toList());
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
        assertNoPinsFromLocksmith("inventory:fair:warehouse-");
    }

    @Test
    void readWriteLocksLetReadersShareAndWritersExcludeWithoutPinning() throws Exception {
        Exclusion[] guarded = guards();
        int writers = THREADS / 5;
        recordAfterFirstUse(left.getReadWriteLock(FIRST_USE).writeLock(), i -> {
            DistributedReadWriteLock lock = manager(i).getReadWriteLock(FIRST_USE);
            return i / 2 % 2 == 0 ? lock.readLock() : lock.writeLock();
        }, i -> {
            takeAndRelease(left.getReadWriteLock(FIRST_USE).readLock());
            takeAndRelease(left.getReadWriteLock(FIRST_USE).writeLock());
        });

        VirtualThreadCrowd.run(THREADS, DEADLINE, i -> {
            DistributedReadWriteLock lock = manager(i).getReadWriteLock("inventory:read-write:warehouse-" + i % NAMES);
            boolean writes = i % 5 == 0;
            DistributedLock side = writes ? lock.writeLock() : lock.readLock();
            side.lock();
            try {
                if (writes) {
                    guarded[i % NAMES].write();
                } else {
                    guarded[i % NAMES].read();
                }
            } finally {
                side.unlock();
            }
        });

        assertExcludedAndCounted(guarded, writers);
        assertNoPinsFromLocksmith("inventory:read-write:");
    }

    @Test
    void lockedBeanMethodsExcludeVirtualThreadsOfTwoManagers() throws Exception {
        try (var application = CdiContainers.start(TestConfig.properties(redis.uri()), CountingService.class)) {
            CountingService service = application.get(CountingService.class);
            recordAfterFirstUse(left.getLock(FIRST_USE), i -> manager(i).getLock(FIRST_USE), i -> {
                service.add("first-use");
                takeAndRelease(right.getLock(FIRST_USE));
            });

            VirtualThreadCrowd.run(THREADS, DEADLINE, i -> {
                String key = "k" + i % NAMES;
                if (i % 2 == 0) {
                    service.add(key);
                } else {
                    // The same lock through another manager, as another server's call would take it.
                    DistributedLock lock = right.getLock("inventory:bean:warehouse-" + key);
                    lock.lock();
                    try {
                        service.guarded(key).write();
                    } finally {
                        lock.unlock();
                    }
                }
            });

            for (int n = 0; n < NAMES; n++) {
                Exclusion guarded = service.guarded("k" + n);
                assertThat(guarded.overlaps()).as("two holders of inventory:bean:warehouse-k" + n + " at once").isZero();
                assertThat(guarded.counter()).as("updates of inventory:bean:warehouse-k" + n).isEqualTo(THREADS / NAMES);
            }
        }
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
        assertNoPinsFromLocksmith("inventory:bean:warehouse-k");
    }

    private static void takeAndRelease(DistributedLock lock) {
        lock.lock();
        lock.unlock();
    }

    private LockManager manager(int index) {
        return index % 2 == 0 ? left : right;
    }

    private static Exclusion[] guards() {
        Exclusion[] guarded = new Exclusion[NAMES];
        for (int n = 0; n < NAMES; n++) {
            guarded[n] = new Exclusion();
        }
        return guarded;
    }

    private static void assertExcludedAndCounted(Exclusion[] guarded, int updates) {
        long total = 0;
        for (int n = 0; n < guarded.length; n++) {
            assertThat(guarded[n].overlaps()).as("a writer found someone else inside lock " + n).isZero();
            total += guarded[n].counter();
        }
        assertThat(total).as("updates made under the locks, none lost").isEqualTo(updates);
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    /**
     * @param names the prefix of the names the crowd took: each of its virtual threads waited at least once
     *              on one of them, so each must be the caller of at least one {@code LockWait} event,
     *              which only the hand-over to Locksmith's writer thread can have lost
     */
    private void assertNoPinsFromLocksmith(String names) {
        PinRecording.Pins pins = recording.stop();
        System.out.println(names + "*: " + pins.summary());
        Set<Long> waited = pins.locksmithEvents().stream()
                .filter(event -> event.getEventType().getName().equals("dev.locksmith.LockWait"))
                .filter(event -> event.getString("lockName").startsWith(names))
                .map(event -> event.getLong("callerThreadId"))
                .collect(Collectors.toSet());
        assertThat(waited).as("virtual threads with a LockWait event on " + names + "*").hasSize(THREADS);

        assertThat(pins.locksmith()).as("virtual threads pinned in Locksmith's frames:" + pins.firstStacks()).isEmpty();
        assertThat(pins.locksmithEvents()).as("the recording includes Locksmith's own events").isNotEmpty();
        assertThat(pins.locksmithEvents())
                .filteredOn(event -> event.getEventType().getName().equals("dev.locksmith.LockWait"))
                .isNotEmpty()
                .allSatisfy(VirtualThreadLockingTest::namesItsVirtualCaller);
    }

    private static void namesItsVirtualCaller(RecordedEvent wait) {
        assertThat(wait.getBoolean("callerVirtual")).as("the waiting thread is the caller").isTrue();
        assertThat(wait.getLong("callerThreadId")).as("the caller's thread id").isPositive()
                .isNotEqualTo(wait.getThread().getJavaThreadId());
        assertThat(wait.getThread().getJavaName()).as("committed off the virtual thread").isEqualTo("locksmith-jfr");
        assertThat(wait.getString("callSite")).contains("dev.locksmith.vthreads.");
    }

    private static long queueLength(String name) {
        return Long.parseLong(redis.node().command("LLEN", "locksmith:{" + name + "}:queue"));
    }
}
