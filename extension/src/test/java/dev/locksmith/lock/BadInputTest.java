package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every bad input is refused with a message that names the bad value and the fix.
 */
class BadInputTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private LockManager locks;

    @BeforeEach
    void connect() {
        locks = Locksmith.builder().redisUri(redis.uri()).build();
    }

    @AfterEach
    void close() {
        locks.close();
    }

    @Test
    void nullBlankAndOversizedNamesAreRefused() {
        assertThatThrownBy(() -> locks.getLock(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null").hasMessageContaining("1..512");
        assertThatThrownBy(() -> locks.getLock("   ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'   '").hasMessageContaining("blank");
        assertThatThrownBy(() -> locks.getLock("x".repeat(513))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("513 characters").hasMessageContaining("512");
        assertThatThrownBy(() -> locks.callWithLock("", Duration.ofSeconds(1), () -> 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aNameOfExactly512CharactersIsFine() {
        DistributedLock lock = locks.getLock("n".repeat(512));
        lock.lock();
        lock.unlock();
    }

    @Test
    void meaninglessLeasesAndMissingUnitsAreRefused() {
        DistributedLock lock = locks.getLock("leases");

        assertThatThrownBy(() -> lock.lock(0, TimeUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Lease time 0 SECONDS").hasMessageContaining("'leases'");
        assertThatThrownBy(() -> lock.lock(-1, TimeUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> lock.tryLock(1, -5, TimeUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-5").hasMessageContaining("use -1 for a watchdog lease");
        assertThatThrownBy(() -> lock.lock(500, TimeUnit.MICROSECONDS)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("milliseconds");
        assertThatThrownBy(() -> lock.tryLock(1, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unit");
        assertThatThrownBy(() -> locks.callWithLock("leases", Duration.ofSeconds(-1), () -> 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> locks.callWithLock("leases", Duration.ofSeconds(1), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("action");
    }

    @Test
    void unlockWithoutAHoldChangesNothing() {
        DistributedLock lock = locks.getLock("not-mine");

        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class)
                .hasMessageContaining("'not-mine'").hasMessageContaining(Thread.currentThread().getName());
        assertThatThrownBy(lock::fencingToken).isInstanceOf(IllegalMonitorStateException.class);
        assertThatThrownBy(lock::newCondition).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void badBuilderSettingsAreRefusedBeforeConnecting() {
        assertThatThrownBy(() -> Locksmith.builder().redisUri(null).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("locksmith.redis.uri");
        assertThatThrownBy(() -> Locksmith.builder().redisUri("http://nope").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http://nope");
        assertThatThrownBy(() -> Locksmith.builder().redisUri("redis://a:1,redis://b:2").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes one URI");
        assertThatThrownBy(() -> Locksmith.builder().redisUri(redis.uri()).leaseTime(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Lease time PT0S");
        assertThatThrownBy(() -> Locksmith.builder().redisUri(redis.uri()).leaseTime(null).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Lease time null");
        assertThatThrownBy(() -> Locksmith.builder().redisUri(redis.uri()).keyPrefix("app{x}:").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("app{x}:");
        assertThatThrownBy(() -> Locksmith.builder().redisUri(redis.uri()).syncReplicas(-1, Duration.ofMillis(5)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> Locksmith.builder().redisUri(redis.uri()).mode(null).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("STANDALONE");
        assertThatThrownBy(() -> Locksmith.builder().redisUri(redis.uri()).commandTimeout(Duration.ofSeconds(-2)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-2S");
        assertThatThrownBy(() -> Locksmith.builder().mode(RedisMode.REDLOCK)
                .redisUri("redis://127.0.0.1:1,redis://127.0.0.1:2").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("odd number");
        assertThatThrownBy(() -> Locksmith.builder().mode(RedisMode.REDLOCK).syncReplicas(1, Duration.ofMillis(5))
                .redisUri("redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("REDLOCK");
    }

    @Test
    void passwordsNeverAppearInErrorMessages() {
        assertThatThrownBy(() -> Locksmith.builder().redisUri("redis://user:s3cret@127.0.0.1:1,redis://x:2").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("s3cret").hasMessageContaining("user:****@");
    }

    @Test
    void aClosedManagerRefusesEveryCall() {
        LockManager closed = Locksmith.builder().redisUri(redis.uri()).build();
        DistributedLock lock = closed.getLock("after-close");
        closed.close();

        assertThatThrownBy(lock::tryLock).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(lock::isLocked).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> closed.getLock("x")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> closed.callWithLock("x", Duration.ZERO, () -> 1)).isInstanceOf(IllegalStateException.class);
    }
}
