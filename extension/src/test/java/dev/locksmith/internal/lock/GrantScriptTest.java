package dev.locksmith.internal.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.lock.kind.RingRelease;
import dev.locksmith.internal.wire.OfferMessage;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.SetArgs;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A grant of the reentrant lock in its scripts: the release grants the lock to the first process
 * of the ring with the taker's fencing token; only that process takes it ({@code take-grant}, by
 * the grant's token, with a copy answered alike), and nobody else passes it on or withdraws it
 * until its patience has run out on the server's clock, while that process itself may decline it
 * at once. Owner ids are {@code <manager>:<thread>}; a pub/sub connection of the test listens for
 * the processes that are alive.
 */
class GrantScriptTest {
    private static final String FIRST = "first-process:1";
    private static final String SECOND = "second-process:1";
    private static final String SECOND_OTHER_THREAD = "second-process:2";
    private static final String THIRD = "third-process:1";
    private static final long PATIENCE = 300;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final LockKeys keys = LockKeys.of("locksmith:", "granted");
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
                heard.add(message);
            }
        });
        listener.sync().subscribe(keys.address("second-process"), keys.address("third-process"));
    }

    @AfterEach
    void disconnect() {
        listener.close();
        listenerClient.shutdown();
        scripts.redis().del(keys.lock(), keys.fence(), keys.latch(FIRST), keys.latch(SECOND));
        scripts.close();
    }

    @Test
    void onlyTheProcessGrantedTakesTheGrantByItsTokenAndACopyOfTheTakeAnswersAlike() throws Exception {
        OfferMessage grant = grantToSecond();

        assertThat(scripts.acquire(keys, SECOND_OTHER_THREAD, true).get(0))
                .as("another thread of the process granted asks with acquire: a waiter may hold it already").isZero();
        assertThat(scripts.acquireTakingGrant(keys, THIRD).get(0)).as("'g' takes only a grant to its own process")
                .isZero();
        assertThat(scripts.takeGrant(keys, THIRD, grant.grant()).get(0)).as("another process, the right token").isZero();
        assertThat(scripts.takeGrant(keys, SECOND, grant.grant() - 1).get(0)).as("another grant's token").isZero();
        assertThat(scripts.redis().get(keys.lock())).as("still granted").startsWith("rsecond-process:|");

        assertThat(scripts.takeGrant(keys, SECOND, grant.grant())).containsExactly(1L, grant.grant());
        String held = scripts.redis().get(keys.lock());
        assertThat(held).startsWith("W" + SECOND + "|" + grant.grant() + "|1|").contains("|,third-process:,|");
        assertThat(scripts.takeGrant(keys, SECOND, grant.grant())).as("a copy of the take").containsExactly(1L,
                grant.grant());
        assertThat(scripts.redis().get(keys.lock())).as("changed nothing").isEqualTo(held);
    }

    /**
     * A multi-lock's attempt at every part at once joins no ring, yet its process may be granted
     * one of the parts (its thread waited for that part before): the attempt takes the grant when
     * it says so ({@code t}), and otherwise is told that the lock is taken, and joins nothing.
     */
    @Test
    void anAttemptThatJoinsNoRingTakesAGrantToItsProcessWhenItSaysSo() throws Exception {
        grantToSecond();

        assertThat(scripts.acquire(keys, SECOND_OTHER_THREAD, false).get(0)).as("a plain attempt of that process")
                .isZero();
        assertThat(scripts.acquireTakingGrant(keys, THIRD, false)).as("'t' of another process: busy, outside the ring")
                .hasSize(2).first().isEqualTo(0L);
        assertThat(scripts.redis().get(keys.lock())).as("still granted, the ring unchanged")
                .startsWith("rsecond-process:|").contains("|,third-process:,|");

        List<Long> taken = scripts.acquireTakingGrant(keys, SECOND_OTHER_THREAD, false);
        assertThat(taken.get(0)).as("'t' of the process granted takes it").isOne();
        assertThat(scripts.redis().get(keys.lock())).startsWith("W" + SECOND_OTHER_THREAD + "|" + taken.get(1) + "|1|");
    }

    @Test
    void nobodyButTheProcessGrantedPassesTheGrantOnBeforeItsPatienceRanOut() throws Exception {
        OfferMessage grant = grantToSecond();
        String token = Long.toString(grant.token());

        long early = scripts.passOffer(keys, token, "0", "", PATIENCE);
        assertThat(early).as("-2 - the ms of patience left").isLessThanOrEqualTo(-2L).isGreaterThanOrEqualTo(-2 - PATIENCE);
        assertThat(scripts.withdrawOffer(keys, token)).as("nor withdrawn by its closing releaser")
                .isLessThanOrEqualTo(-2L);
        assertThat(scripts.redis().get(keys.lock())).startsWith("rsecond-process:|" + token + "|0|");

        Await.until("the grant's patience ran out (its time to live tells)", Duration.ofSeconds(5),
                () -> passOn(token) == 1);
        OfferMessage passed = OfferMessage.parse(heard.poll(5, TimeUnit.SECONDS)).orElseThrow();
        assertThat(List.of(passed.token(), passed.number())).containsExactly(grant.token(), 1L);
        assertThat(passed.grant()).as("a grant of its own, with a newer token").isGreaterThan(grant.grant());
        assertThat(scripts.takeGrant(keys, SECOND, grant.grant()).get(0)).as("the first grant is gone").isZero();
        assertThat(scripts.takeGrant(keys, THIRD, passed.grant())).containsExactly(1L, passed.grant());
    }

    @Test
    void theProcessGrantedDeclinesAtOnce() throws Exception {
        OfferMessage grant = grantToSecond();

        assertThat(scripts.passOffer(keys, Long.toString(grant.token()), "0", "second-process:", PATIENCE))
                .as("declined, passed on to the third").isOne();
        OfferMessage passed = OfferMessage.parse(heard.poll(5, TimeUnit.SECONDS)).orElseThrow();
        assertThat(passed.grant()).isGreaterThan(grant.grant());
        assertThat(scripts.redis().get(keys.lock())).startsWith("rthird-process:|");
    }

    /**
     * The grantee's release runs before its take-grant (one answered NOSCRIPT is sent again): it
     * ends the grant as its hold, offering the lock on with its token; the late take-grant finds
     * the grant gone and writes nothing. Only the grantee's owner, with the grant's token, may.
     */
    @Test
    void aReleaseThatOutrunsItsTakeGrantEndsTheGrantAsTheGranteesHold() throws Exception {
        OfferMessage grant = grantToSecond();
        String granted = scripts.redis().get(keys.lock());

        assertThat(scripts.release(keys, THIRD, "3", onItsWord(grant.grant()))).as("another process").isEqualTo(-1);
        assertThat(scripts.release(keys, SECOND, "4", onItsWord(grant.grant() - 1))).as("another grant")
                .isEqualTo(-1);
        assertThat(scripts.release(keys, SECOND, "5", onItsWord(RingRelease.CONFIRMED)))
                .as("a release that does not say it holds the grant on its word").isEqualTo(-1);
        assertThat(scripts.redis().get(keys.lock())).as("still granted").isEqualTo(granted);

        assertThat(scripts.release(keys, SECOND, "6", onItsWord(grant.grant()))).as("offered on").isOne();
        OfferMessage passed = OfferMessage.parse(heard.poll(5, TimeUnit.SECONDS)).orElseThrow();
        assertThat(passed.token()).as("the offer names the hold that ended").isEqualTo(grant.grant());
        assertThat(passed.grant()).isGreaterThan(grant.grant());
        assertThat(scripts.release(keys, SECOND, "6", onItsWord(grant.grant()))).as("a copy answers alike").isOne();
        String passedOn = scripts.redis().get(keys.lock());
        assertThat(passedOn).startsWith("rthird-process:|" + grant.grant() + "|0|");

        assertThat(scripts.takeGrant(keys, SECOND, grant.grant()).get(0)).as("the late take-grant").isZero();
        assertThat(scripts.redis().get(keys.lock())).as("changed nothing").isEqualTo(passedOn);
    }

    private static RingRelease onItsWord(long grant) {
        return new RingRelease(true, 30_000, false, PATIENCE, 60_000, grant);
    }

    /**
     * A thread of the process granted asks while no thread there holds the grant on its word (its
     * process says so with 'g'): it takes the lock, as it would a free one.
     */
    @Test
    void anAttemptOfTheProcessGrantedTakesTheGrantWhenNoWaiterThereHoldsIt() throws Exception {
        OfferMessage grant = grantToSecond();

        List<Long> taken = scripts.acquireTakingGrant(keys, SECOND_OTHER_THREAD);
        assertThat(taken.get(0)).isOne();
        assertThat(taken.get(1)).as("a token of its own, newer than the grant's").isGreaterThan(grant.grant());
        assertThat(scripts.redis().get(keys.lock())).startsWith("W" + SECOND_OTHER_THREAD + "|");
        assertThat(scripts.takeGrant(keys, SECOND, grant.grant()).get(0)).as("the grant was taken").isZero();
    }

    /**
     * A rolling upgrade: a process of the previous version reserved the lock for this one without
     * a grant; this version's acquire takes it, as before.
     */
    @Test
    void anOfferWithoutAGrantIsTakenByTheAcquireOfTheProcessOfferedTo() throws Exception {
        scripts.redis().set(keys.lock(), "rsecond-process:|5|0|" + System.currentTimeMillis() + "||",
                SetArgs.Builder.px(30_000));

        assertThat(scripts.acquire(keys, SECOND, true).get(0)).isOne();
        assertThat(scripts.redis().get(keys.lock())).startsWith("-" + SECOND + "|");
    }

    private long passOn(String token) {
        try {
            return scripts.passOffer(keys, token, "0", "", PATIENCE);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * FIRST holds, SECOND and THIRD wait in the ring in that order, and FIRST's release grants the
     * lock to SECOND with {@link #PATIENCE}.
     *
     * @return the grant SECOND heard
     */
    private OfferMessage grantToSecond() throws Exception {
        scripts.acquire(keys, FIRST, true);
        List<Long> joined = scripts.acquire(keys, SECOND, true);
        assertThat(joined).as("busy, in the ring, with the token the attempt spent").hasSize(4);
        scripts.acquire(keys, THIRD, true);
        assertThat(scripts.release(keys, FIRST, "1", new RingRelease(true, 30_000, false, PATIENCE, 60_000, RingRelease.CONFIRMED))).isOne();
        OfferMessage grant = OfferMessage.parse(heard.poll(5, TimeUnit.SECONDS)).orElseThrow();
        assertThat(grant.patienceMillis()).isEqualTo(PATIENCE);
        assertThat(grant.grant()).as("newer than every attempt that found the lock another's").isGreaterThan(joined.get(3));
        return grant;
    }
}
