package dev.locksmith.internal.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.LockInfo;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.lock.kind.ReadWriteKind;
import dev.locksmith.internal.lock.kind.RingRelease;
import dev.locksmith.internal.wire.OfferMessage;
import dev.locksmith.testing.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.SetArgs;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ring of waiting processes in the reentrant lock's scripts: a waiting process joins it once,
 * a release offers the lock to the first process of it that listens on its own channel and tells
 * nobody else, skips the processes that no longer listen, and an offer not taken is passed on.
 * Owner ids are {@code <manager>:<thread>}; each manager stands for a process, and a pub/sub
 * connection of the test listens for the processes that are alive.
 */
class RingScriptTest {
    private static final String FIRST = "first-process:1";
    private static final String FIRST_OTHER_THREAD = "first-process:2";
    private static final String SECOND = "second-process:1";
    private static final String THIRD = "third-process:1";
    private static final RingRelease OFFER_AND_STAY = new RingRelease(true, 30_000, true, 1_000, 60_000, RingRelease.CONFIRMED);
    // A grant of no patience: passing it on needs no wait (GrantScriptTest tests the patience).
    private static final RingRelease OFFER = new RingRelease(true, 30_000, false, 0, 60_000, RingRelease.CONFIRMED);

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final LockKeys keys = LockKeys.of("locksmith:", "turns");
    private final BlockingQueue<String> heard = new LinkedBlockingQueue<>();
    private ScriptClient scripts;
    private RedisClient listenerClient;
    private StatefulRedisPubSubConnection<String, String> listener;

    @BeforeEach
    void connect() {
        scripts = new ScriptClient(redis.uri());
        listenerClient = RedisClient.create(redis.uri());
        listener = listenerClient.connectPubSub();
        listener.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                heard.add(channel.substring(channel.lastIndexOf(':', channel.length() - 2) + 1) + " " + message);
            }
        });
    }

    @AfterEach
    void disconnect() {
        listener.close();
        listenerClient.shutdown();
        scripts.redis().flushall();
        scripts.close();
    }

    @Test
    void aReleaseOffersTheLockToTheFirstWaitingProcessOnlyAndItsThreadTakesIt() throws Exception {
        listen("second-process", "third-process");
        long token = acquire(FIRST, true).get(1);
        List<Long> busy = acquire(SECOND, true);
        assertThat(busy.get(0)).as("busy").isZero();
        assertThat(busy.get(1)).as("for the holder's lease").isBetween(1L, 30_000L);
        assertThat(busy.get(2)).as("the second process joined the ring").isOne();
        assertThat(acquire(THIRD, true).get(2)).isOne();
        assertThat(acquire(SECOND, true).get(2)).as("joined once").isOne();
        assertThat(value()).startsWith("W" + FIRST + "|").contains("|,second-process:,third-process:,|");

        long before = System.currentTimeMillis();
        assertThat(scripts.release(keys, FIRST, "1", OFFER_AND_STAY)).as("offered").isOne();
        long after = System.currentTimeMillis();

        OfferMessage grant = heardBy("second-process");
        assertThat(grant.token()).isEqualTo(token);
        assertThat(grant.number()).isZero();
        assertThat(grant.grant()).as("the taker's fencing token").isGreaterThan(token);
        assertThat(grant.patienceMillis()).isEqualTo(1_000);
        assertThat(value()).as("reserved for the second process, since the release; the releaser joined the ring's end;"
                + " passable by others once its time to live is below 30,000 - 1,000 ms")
                .matches("rsecond-process:\\|" + token + "\\|0\\|\\d+\\|,third-process:,first-process:,\\|g"
                        + grant.grant() + "/29000");
        assertThat(offeredAt()).as("when the offer was made, by the releasing process's clock").isBetween(before, after);
        assertThat(acquire(FIRST_OTHER_THREAD, true).get(0)).as("the releasing process waits its turn").isZero();
        assertThat(acquire(THIRD, true).get(0)).as("so does the third").isZero();
        assertThat(value()).as("nobody joined twice").contains("|,third-process:,first-process:,|");
        List<Long> taken = scripts.takeGrant(keys, SECOND, grant.grant());
        assertThat(taken).as("the process granted it takes it, with the grant's token").containsExactly(1L, grant.grant());
        assertThat(value()).startsWith("W" + SECOND + "|" + grant.grant() + "|1|")
                .contains("|,third-process:,first-process:,|");
        assertThat(heard).as("nobody else heard of it").isEmpty();
    }

    @Test
    void aProcessThatNoLongerListensIsSkippedAndDroppedFromTheRing() throws Exception {
        listen("third-process");
        long token = acquire(FIRST, true).get(1);
        acquire(SECOND, true); // does not listen: it died after joining
        acquire(THIRD, true);

        assertThat(scripts.release(keys, FIRST, "1", OFFER)).isOne();

        OfferMessage grant = heardBy("third-process");
        assertThat(grant.token()).isEqualTo(token);
        assertThat(value()).matches("rthird-process:\\|" + token + "\\|0\\|\\d+\\|\\|g" + grant.grant() + "/30000");
        assertThat(scripts.takeGrant(keys, THIRD, grant.grant()).get(0)).isOne();
        assertThat(scripts.release(keys, THIRD, "1", OFFER)).as("nobody waits: a plain release").isZero();
        assertThat(scripts.redis().exists(keys.lock())).isZero();
    }

    @Test
    void withNobodyListeningTheLockIsReleasedAndEveryoneWoken() throws Exception {
        listenTo(keys.channel());
        acquire(FIRST, true);
        acquire(SECOND, true);

        assertThat(scripts.release(keys, FIRST, "1", OFFER)).isZero();
        assertThat(scripts.release(keys, FIRST, "1", OFFER)).as("a resend gets the same answer").isZero();

        assertThat(scripts.redis().exists(keys.lock())).isZero();
        assertThat(heard.poll(5, TimeUnit.SECONDS)).endsWith(" *");
    }

    @Test
    void anOfferNotTakenIsPassedOnOnceAndAStalePassChangesNothing() throws Exception {
        listen("second-process", "third-process");
        long token = acquire(FIRST, true).get(1);
        acquire(SECOND, true);
        acquire(THIRD, true);
        scripts.release(keys, FIRST, "1", OFFER);
        heard.poll(5, TimeUnit.SECONDS);

        String offered = Long.toString(token);
        long before = System.currentTimeMillis();
        assertThat(scripts.passOffer(keys, offered, "0", "")).as("passed on: offer 1").isOne();
        long after = System.currentTimeMillis();
        OfferMessage passed = heardBy("third-process");
        assertThat(List.of(passed.token(), passed.number())).containsExactly(token, 1L);
        assertThat(value()).startsWith("rthird-process:|" + token + "|1|");
        assertThat(offeredAt()).as("when it was passed on, by the passing process's clock").isBetween(before, after);
        assertThat(scripts.passOffer(keys, offered, "0", "")).as("offer 0 was passed already").isOne();
        assertThat(scripts.passOffer(keys, offered, "1", "second-process:")).as("not offered to second").isOne();
        assertThat(heard).isEmpty();
        assertThat(acquire(SECOND, true).get(0)).as("the process passed over lost its turn").isZero();
        assertThat(acquire(THIRD, true).get(0)).as("a grant is taken only by take-grant").isZero();

        assertThat(scripts.takeGrant(keys, THIRD, passed.grant()).get(0)).isOne();
        assertThat(scripts.passOffer(keys, offered, "1", "")).as("taken: no offer any more").isEqualTo(-1L);
    }

    @Test
    void theLastProcessPassingItsOfferOnFreesTheLock() throws Exception {
        listenTo(keys.channel(), keys.address("second-process"));
        long token = acquire(FIRST, true).get(1);
        acquire(SECOND, true);
        scripts.release(keys, FIRST, "1", new RingRelease(true, 30_000, false, 60_000, 60_000, RingRelease.CONFIRMED));
        assertThat(heardBy("second-process").token()).isEqualTo(token);

        assertThat(scripts.passOffer(keys, Long.toString(token), "0", "second-process:"))
                .as("declined by the process granted it, at once, however long the grant's patience").isEqualTo(-1L);

        assertThat(scripts.redis().exists(keys.lock())).isZero();
        assertThat(heard.poll(5, TimeUnit.SECONDS)).as("everyone may ask").endsWith(" *");
    }

    @Test
    void aClosingReleaserWithdrawsItsOfferWhereverItWasPassedAndEveryoneMayAsk() throws Exception {
        listenTo(keys.channel(), keys.address("second-process"), keys.address("third-process"));
        long token = acquire(FIRST, true).get(1);
        acquire(SECOND, true);
        acquire(THIRD, true);
        scripts.release(keys, FIRST, "1", OFFER);
        assertThat(heardBy("second-process").token()).isEqualTo(token);
        assertThat(scripts.passOffer(keys, Long.toString(token), "0", "")).as("passed on to the third").isOne();
        assertThat(heardBy("third-process").number()).isOne();

        assertThat(scripts.withdrawOffer(keys, Long.toString(token))).as("withdrawn").isEqualTo(-1L);

        assertThat(scripts.redis().exists(keys.lock())).as("free").isZero();
        assertThat(heard.poll(5, TimeUnit.SECONDS)).as("everyone may ask").endsWith(" *");
        assertThat(acquire(SECOND, true).get(0)).as("whoever asks first takes it").isOne();
        assertThat(scripts.withdrawOffer(keys, Long.toString(token))).as("a held lock is left alone").isEqualTo(-1L);
        assertThat(value()).startsWith("-" + SECOND + "|");
    }

    /**
     * The write lock's ring can name processes that no longer wait but still listen (their writers
     * got the lock by asking, or gave up): the last of a busy lock's holders closes while its offer
     * to one of them stands. The withdrawal takes the ring with the offer, as the reentrant lock's
     * does, so nothing is left for a lease.
     */
    @Test
    void aWithdrawnWriteOfferTakesTheRingWithItAndLeavesNothingWhenNobodyWaits() throws Exception {
        LockKeys shelf = LockKeys.of("locksmith:", "shelf").readWrite();
        listenTo(shelf.channel(), shelf.address("second-process"), shelf.address("third-process"));
        long token = scripts.acquire(ReadWriteKind.WRITE, shelf, FIRST, true).get(1);
        assertThat(scripts.acquire(ReadWriteKind.WRITE, shelf, SECOND, true).get(2)).as("in the ring").isOne();
        assertThat(scripts.acquire(ReadWriteKind.WRITE, shelf, THIRD, true).get(2)).as("in the ring").isOne();
        assertThat(scripts.giveUp(ReadWriteKind.WRITE, shelf, SECOND)).as("stopped waiting").isOne();
        assertThat(scripts.giveUp(ReadWriteKind.WRITE, shelf, THIRD)).as("stopped waiting").isOne();
        assertThat(List.of(heard.poll(5, TimeUnit.SECONDS), heard.poll(5, TimeUnit.SECONDS)))
                .as("each give-up wakes everyone").allMatch(message -> message.endsWith(" *"));
        assertThat(scripts.release(ReadWriteKind.WRITE, shelf, FIRST, "1", OFFER)).as("offered").isOne();
        assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo("second-process: " + new OfferMessage(token, 0).text());
        assertThat(scripts.redis().hget(shelf.lock(), "o")).as("the ring behind the offer").isEqualTo(",third-process:,");

        assertThat(scripts.withdrawOffer(shelf, Long.toString(token))).as("withdrawn").isEqualTo(-1L);

        assertThat(scripts.redis().hgetall(shelf.lock())).as("nothing left").isEmpty();
        assertThat(heard.poll(5, TimeUnit.SECONDS)).as("everyone may ask").endsWith(" *");
    }

    /**
     * A write offer passed on to nobody (the processes of the ring stopped listening) leaves no
     * wake-up flag or lapsed mark behind either.
     */
    @Test
    void aWriteOfferPassedOnToNobodyLeavesNothingWhenNobodyWaits() throws Exception {
        LockKeys shelf = LockKeys.of("locksmith:", "shelf").readWrite();
        listenTo(shelf.channel(), shelf.address("second-process"));
        long token = scripts.acquire(ReadWriteKind.WRITE, shelf, FIRST, true).get(1);
        scripts.acquire(ReadWriteKind.WRITE, shelf, SECOND, true);
        assertThat(scripts.release(ReadWriteKind.WRITE, shelf, FIRST, "1", OFFER)).as("offered").isOne();
        assertThat(scripts.acquire(ReadWriteKind.READ, shelf, THIRD, false).get(0)).as("a reader waits behind the offer")
                .isZero();
        assertThat(scripts.redis().hexists(shelf.lock(), "f")).as("the reader asked to be woken").isTrue();
        assertThat(scripts.giveUp(ReadWriteKind.WRITE, shelf, SECOND)).as("stopped waiting").isOne();
        assertThat(scripts.redis().hgetall(shelf.lock())).as("the offer still stands").containsKey("x");

        assertThat(scripts.passOffer(shelf, Long.toString(token), "0", "second-process:")).as("declined")
                .isEqualTo(-1L);

        assertThat(scripts.redis().hgetall(shelf.lock())).as("nothing left").isEmpty();
    }

    @Test
    void anOfferedLockIsNeitherHeldNorForcedAndIsDescribedAsAnOffer() throws Exception {
        listen("second-process");
        acquire(FIRST, true);
        acquire(SECOND, true);
        scripts.release(keys, FIRST, "1", OFFER);

        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            LockInfo info = locks.describe("turns");
            assertThat(info.holders()).isEmpty();
            assertThat(info.offer()).as("reserved for the second process, which describes itself nowhere")
                    .hasValueSatisfying(offer -> {
                        assertThat(offer.mode()).isEqualTo("exclusive");
                        assertThat(offer.manager()).isEqualTo("second-process");
                        assertThat(offer.process()).isNull();
                        assertThat(offer.passedOn()).isZero();
                        assertThat(offer.since()).isNotNull();
                        assertThat(offer.reservationLeft()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
                    });
            assertThat(locks.getLock("turns").isLocked()).isFalse();
            assertThat(locks.getLock("turns").forceUnlock()).as("no hold was removed").isFalse();
        }
        assertThat(scripts.redis().exists(keys.lock())).isZero();
    }

    /**
     * An offer made by a version of Locksmith that did not record when it was made is read as
     * before: described without a time, and passed on like any other, the offer passed on with its
     * time.
     */
    @Test
    void anOfferWithoutItsTimeIsDescribedAndPassedOnLikeAnyOther() throws Exception {
        LockKeys shelf = LockKeys.of("locksmith:", "shelf").readWrite();
        listen("third-process");
        listenTo(shelf.address("third-process"));
        scripts.redis().set(keys.lock(), "rsecond-process:|5|0||,third-process:,|", SetArgs.Builder.px(30_000));
        scripts.redis().hset(shelf.lock(), Map.of("x", "second-process:|5|0", "o", ",third-process:,"));
        scripts.redis().pexpire(shelf.lock(), 30_000);

        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            assertThat(locks.describe("turns").offer()).hasValueSatisfying(offer -> {
                assertThat(offer.mode()).isEqualTo("exclusive");
                assertThat(offer.manager()).isEqualTo("second-process");
                assertThat(offer.since()).isNull();
            });
            assertThat(locks.describe("shelf").offer()).hasValueSatisfying(offer -> {
                assertThat(offer.mode()).isEqualTo("write");
                assertThat(offer.manager()).isEqualTo("second-process");
                assertThat(offer.since()).isNull();
            });

            long before = System.currentTimeMillis();
            assertThat(scripts.passOffer(keys, "5", "0", "")).as("the reentrant lock's offer passed on").isOne();
            assertThat(scripts.passOffer(shelf, "5", "0", "")).as("the write lock's offer passed on").isOne();
            long after = System.currentTimeMillis();

            assertThat(List.of(locks.describe("turns").offer().orElseThrow(),
                    locks.describe("shelf").offer().orElseThrow())).allSatisfy(offer -> {
                assertThat(offer.manager()).isEqualTo("third-process");
                assertThat(offer.passedOn()).isOne();
                assertThat(offer.since().toEpochMilli()).isBetween(before, after);
            });
        }
        OfferMessage passedOn = heardBy("third-process");
        assertThat(List.of(passedOn.token(), passedOn.number())).as("the reentrant lock's, now a grant").containsExactly(5L, 1L);
        assertThat(passedOn.grants()).isTrue();
        assertThat(heard.poll(5, TimeUnit.SECONDS)).as("the write lock's, an offer as before")
                .isEqualTo("third-process: " + new OfferMessage(5, 1).text());
    }

    /**
     * The fair lock keeps its own queue, but its turns travel like offers: a release (and a head
     * that leaves while the lock is free) names the new head on its process's own channel, so a
     * hand-off costs the other waiting processes nothing.
     */
    @Test
    void theFairLocksTurnIsHeardByTheHeadsProcessAlone() throws Exception {
        listen("second-process", "third-process");
        listenTo(keys.channel());
        assertThat(scripts.fairAcquire(keys, FIRST).get(0)).isOne();
        assertThat(scripts.fairAcquire(keys, SECOND).get(0)).as("queued").isZero();
        assertThat(scripts.fairAcquire(keys, THIRD).get(0)).as("queued").isZero();

        assertThat(scripts.fairRelease(keys, FIRST, "1")).isZero();
        assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo("second-process: " + SECOND);
        assertThat(scripts.fairLeave(keys, SECOND)).as("the head gives up while the lock is free").isOne();
        assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo("third-process: " + THIRD);
        assertThat(scripts.fairAcquire(keys, THIRD).get(0)).isOne();

        // Messages of one connection arrive in the order published: whatever else the scripts
        // published arrives before this one.
        scripts.redis().publish(keys.channel(), "end");
        assertThat(heard.poll(5, TimeUnit.SECONDS)).as("nothing on the lock's channel, nothing for others")
                .isEqualTo("released end");
        assertThat(scripts.fairRelease(keys, THIRD, "2")).isZero();
    }

    private void listen(String... managers) {
        String[] channels = new String[managers.length];
        for (int i = 0; i < managers.length; i++) {
            channels[i] = keys.address(managers[i]);
        }
        listenTo(channels);
    }

    private void listenTo(String... channels) {
        listener.sync().subscribe(channels);
    }

    private List<Long> acquire(String owner, boolean joinsRing) throws Exception {
        return scripts.acquire(keys, owner, joinsRing);
    }

    /**
     * @return the next offer heard, which must be on that manager's own channel
     */
    private OfferMessage heardBy(String manager) throws InterruptedException {
        String message = heard.poll(5, TimeUnit.SECONDS);
        assertThat(message).as("an offer to " + manager).startsWith(manager + ": ");
        return OfferMessage.parse(message.substring(message.indexOf(' ') + 1)).orElseThrow();
    }

    private String value() {
        return scripts.redis().get(keys.lock());
    }

    /**
     * @return the offered ms of the offer standing in the lock's value
     */
    private long offeredAt() {
        return Long.parseLong(value().split("\\|", 6)[3]);
    }
}
