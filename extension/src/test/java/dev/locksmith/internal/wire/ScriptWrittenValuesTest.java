package dev.locksmith.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.LastRun;
import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.redis.ScriptRunner;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.internal.wire.ExclusiveValue.Mark;
import dev.locksmith.internal.wire.ReadWriteField.Kind;
import dev.locksmith.testing.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Where a script writes a value and Java reads it, the Java codec reads what a real Redis holds
 * after the script ran: the exclusive lock's value of every kind of hold and of an offer, the
 * read/write hash's fields, and the lines of {@code inspect}.
 */
class ScriptWrittenValuesTest {
    private static final String OWNER = "first-process:17";
    private static final String OTHER = "second-process:3";
    private static final String THREAD = "pool-1 | worker";

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final LockKeys keys = LockKeys.of("locksmith:", "ledger");
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;
    private ScriptRunner scripts;

    @BeforeEach
    void connect() {
        client = RedisClient.create(redis.uri());
        connection = client.connect();
        scripts = new ScriptRunner(connection.async());
    }

    @AfterEach
    void disconnect() {
        connection.close();
        client.shutdown();
    }

    @Test
    void aReentrantHoldReadsWithItsOwnerTokenCountSinceAndThread() throws Exception {
        long since = System.currentTimeMillis();
        List<Long> granted = run(acquire(OWNER, since, false));
        run(LockScript.call("hold-count").key("lock", keys.lock()).arg("owner", OWNER).arg("count", 3).arg("lease", "")
                .integer());

        ExclusiveValue value = stored().orElseThrow();

        assertThat(value).isEqualTo(new ExclusiveValue(Mark.REENTRANT, OWNER, granted.get(1), 3,
                Instant.ofEpochMilli(since), "", THREAD));
        assertThat(value.heldBy(OWNER)).isTrue();
        assertThat(value.heldBy(OTHER)).isFalse();
    }

    @Test
    void aFairHoldAWaitedHoldAndAKeptLockReadWithTheirMarks() throws Exception {
        run(fairAcquire(OWNER));
        assertThat(stored().orElseThrow().mark()).isEqualTo(Mark.FAIR);
        run(acquire(OTHER, System.currentTimeMillis(), false)); // another process asks for '*'
        assertThat(stored().orElseThrow().mark()).isEqualTo(Mark.FAIR_WAITED);

        run(LockScript.call("keep").key("lock", keys.lock()).key("channel", keys.channel())
                .key("latch", keys.latch(OWNER)).key("queue", keys.queue()).key("places", keys.placePrefix())
                .arg("owner", OWNER).arg("latch-life", 5000).arg("keep", 30_000).arg("request", "1")
                .arg("publish", "publish").integer());

        ExclusiveValue kept = stored().orElseThrow();
        assertThat(kept.mark()).isEqualTo(Mark.KEPT);
        assertThat(kept.count()).isZero();
        assertThat(kept.taken()).isTrue();
        assertThat(kept.heldBy(OWNER)).as("a kept lock is nobody's").isFalse();
    }

    @Test
    void anOfferToAWaitingProcessReadsWithItsManagerTokenAndTime() throws Exception {
        StatefulRedisPubSubConnection<String, String> listener = client.connectPubSub();
        try {
            listener.sync().subscribe(keys.address("second-process"));
            long token = this.<List<Long>>run(acquire(OWNER, System.currentTimeMillis(), false)).get(1);
            assertThat(this.<List<Long>>run(acquire(OTHER, System.currentTimeMillis(), true)).get(2))
                    .as("the second process joined the ring").isOne();
            assertThat(stored().orElseThrow().mark()).isEqualTo(Mark.REENTRANT_WAITED_ELSEWHERE);
            long now = System.currentTimeMillis();

            assertThat(this.<Long>run(LockScript.call("release").key("lock", keys.lock()).key("channel", keys.channel())
                    .key("latch", keys.latch(OWNER)).key("fence", keys.fence()).arg("owner", OWNER)
                    .arg("latch-life", 5000).arg("publish", "publish").arg("request", "1").arg("reserve", 30_000)
                    .flag("stay-in-ring", false).arg("now", now).arg("patience", 1_000).arg("fence-life", 60_000)
                    .arg("grant", "").integer())).as("offered").isOne();

            ExclusiveValue offer = stored().orElseThrow();
            assertThat(offer).isEqualTo(new ExclusiveValue(Mark.OFFERED, "second-process:", token, 0,
                    Instant.ofEpochMilli(now), "", offer.thread()));
            assertThat(offer.thread()).as("the grant: its fencing token, and the time to live below which others may"
                    + " pass it on").matches("g\\d+/29000");
            assertThat(stored().orElseThrow().taken()).isFalse();
            InspectLine.Offer inspected = inspect().stream().filter(InspectLine.Offer.class::isInstance)
                    .map(InspectLine.Offer.class::cast).findFirst().orElseThrow();
            assertThat(inspected.mode()).isEqualTo("exclusive");
            assertThat(inspected.managerId()).isEqualTo("second-process");
            assertThat(inspected.passedOn()).isZero();
            assertThat(inspected.since()).isEqualTo(Instant.ofEpochMilli(now));
            assertThat(inspected.reservationLeft()).isPositive();
        } finally {
            listener.close();
        }
    }

    @Test
    void theReadWriteHashsFieldsReadWithTheirKindsAndOwners() throws Exception {
        LockKeys readWrite = keys.readWrite();
        run(readWriteAcquire("acquire-read", OWNER, true));
        run(readWriteAcquire("acquire-write", OTHER, true));

        List<ReadWriteField> fields = connection.sync().hkeys(readWrite.lock()).stream().map(ReadWriteField::parse)
                .map(Optional::orElseThrow).toList();

        assertThat(fields).containsExactlyInAnyOrder(ReadWriteField.hold(true, OWNER), ReadWriteField.expiry(OWNER),
                new ReadWriteField(Kind.WAITING, OTHER), new ReadWriteField(Kind.RING, ""));
        run(readWriteAcquire("acquire-read", "third-process:1", false));
        assertThat(connection.sync().hkeys(readWrite.lock()).stream().map(ReadWriteField::parse)
                .map(Optional::orElseThrow)).contains(new ReadWriteField(Kind.WAKE, ""));
    }

    @Test
    void inspectAnswersLinesThatReadAsEveryHolderTheWaitingAndTheLatestRun() throws Exception {
        long since = System.currentTimeMillis();
        long token = this.<List<Long>>run(acquire(OWNER, since, false)).get(1);
        long readToken = this.<List<Long>>run(readWriteAcquire("acquire-read", OTHER, false)).get(1);
        LastRun ran = new LastRun(Instant.ofEpochMilli(since), Duration.ofMillis(12), LastRun.COMPLETED, null,
                "pid 1 on a", "main", token, "ledger", null);
        run(LockScript.call("last-run").key("last-run", keys.lastRun()).key("runs", keys.recentRuns())
                .arg("record", RunRecordFormat.write(ran)).arg("lifetime", 60_000).arg("recent", 5).integer());

        List<InspectLine> lines = inspect();

        assertThat(lines).hasSize(4);
        InspectLine.Holder holder = (InspectLine.Holder) lines.get(0);
        assertThat(holder.mode()).isEqualTo("exclusive");
        assertThat(holder.owner()).isEqualTo(OWNER);
        assertThat(holder.fencingToken()).isEqualTo(token);
        assertThat(holder.holdCount()).isOne();
        assertThat(holder.since()).isEqualTo(Instant.ofEpochMilli(since));
        assertThat(holder.leaseLeft()).isPositive();
        assertThat(holder.thread()).isEqualTo(THREAD);
        InspectLine.Holder reader = (InspectLine.Holder) lines.get(1);
        assertThat(reader.mode()).isEqualTo("read");
        assertThat(reader.owner()).isEqualTo(OTHER);
        assertThat(reader.fencingToken()).isEqualTo(readToken);
        assertThat(reader.thread()).isEqualTo(THREAD);
        assertThat(lines.get(2)).isEqualTo(new InspectLine.Waiting(0, 0));
        assertThat(lines.get(3)).isEqualTo(new InspectLine.LatestRun(ran));
    }

    private ScriptCall acquire(String owner, long since, boolean joinsRing) {
        return LockScript.call("acquire").key("lock", keys.lock()).key("fence", keys.fence()).arg("owner", owner)
                .arg("lease", 30_000).arg("since", since).arg("thread", THREAD).arg("fence-life", 60_000)
                .flag("join-ring", joinsRing).list();
    }

    private ScriptCall fairAcquire(String owner) {
        return LockScript.call("fair-acquire").key("lock", keys.lock()).key("fence", keys.fence())
                .key("queue", keys.queue()).key("places", keys.placePrefix()).arg("owner", owner).arg("lease", 30_000)
                .arg("since", System.currentTimeMillis()).arg("thread", THREAD).arg("fence-life", 60_000)
                .arg("patience", 30_000).list();
    }

    private ScriptCall readWriteAcquire(String operation, String owner, boolean joinsRing) {
        LockKeys readWrite = keys.readWrite();
        return LockScript.call(operation).key("lock", readWrite.lock()).key("fence", readWrite.fence())
                .arg("owner", owner).arg("lease", 30_000).arg("fence-life", 60_000)
                .arg("since", System.currentTimeMillis()).arg("thread", THREAD).flag("join-ring", joinsRing).list();
    }

    private List<InspectLine> inspect() throws Exception {
        List<String> lines = run(LockScript.call("inspect").key("lock", keys.lock())
                .key("rw-lock", keys.readWrite().lock()).key("queue", keys.queue()).key("last-run", keys.lastRun())
                .arg("channel", keys.channel()).arg("sharded", "").arg("rw-channel", keys.readWrite().channel()).list());
        return lines.stream().map(InspectLine::parse).toList();
    }

    private Optional<ExclusiveValue> stored() {
        return ExclusiveValue.parse(connection.sync().get(keys.lock()));
    }

    private <T> T run(ScriptCall call) throws Exception {
        return call.<T>runOn(scripts).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }
}
