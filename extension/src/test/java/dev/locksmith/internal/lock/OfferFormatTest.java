package dev.locksmith.internal.lock;

import dev.locksmith.internal.lock.kind.LockKeys;
import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LogCapture;
import dev.locksmith.testing.RedisServerExtension;
import io.lettuce.core.SetArgs;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A rolling upgrade, from this version's side: an older Locksmith on the same Redis holds the
 * lock, and its release offers it to this process in its own format ({@code o<token>.<number>},
 * which this version does not read). The waiting thread here is woken all the same, asks Redis,
 * and takes the lock reserved for its process; the offer is logged once. The older process is
 * played by the scripts ({@link ScriptClient}) and by the two writes its release made: the
 * reservation and the message.
 */
class OfferFormatTest {
    private static final Pattern RING_MEMBER = Pattern.compile(",([^,:]+):,");

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final LockKeys keys = LockKeys.of("locksmith:", "rolling-upgrade");
    private final ExecutorService waiterThread = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        waiterThread.shutdownNow();
    }

    @Test
    void aWaiterTakesTheLockAnOlderVersionOfferedItsProcess() throws Exception {
        try (ScriptClient older = new ScriptClient(redis.uri());
             LogCapture logs = LogCapture.start();
             LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            long token = older.acquire(keys, "older-process:1", true).get(1);
            DistributedLock lock = locks.getLock("rolling-upgrade");
            Future<Boolean> waiter = waiterThread.submit(() -> {
                boolean taken = lock.tryLock(20, TimeUnit.SECONDS);
                if (taken) {
                    lock.unlock();
                }
                return taken;
            });
            Await.until("this process joined the ring", Duration.ofSeconds(10),
                    () -> RING_MEMBER.matcher(older.redis().get(keys.lock())).find());
            Matcher member = RING_MEMBER.matcher(older.redis().get(keys.lock()));
            assertThat(member.find()).isTrue();
            String manager = member.group(1);

            // The older release: the lock reserved for this process, and the offer in the old format.
            older.redis().set(keys.lock(), "r" + manager + ":|" + token + "|0|" + System.currentTimeMillis() + "||",
                    SetArgs.Builder.keepttl());
            assertThat(older.redis().publish(keys.address(manager), "o" + token + ".0")).as("listeners").isOne();

            assertThat(waiter.get(10, TimeUnit.SECONDS)).as("taken long before the older holder's lease (30 s)")
                    .isTrue();
            assertThat(logs.messages()).filteredOn(line -> line.contains("in a format this Locksmith version does not"
                    + " read")).hasSize(1);
            Await.until("nothing left of the lock", Duration.ofSeconds(10),
                    () -> older.redis().exists(keys.lock()) == 0);
        }
    }
}
