package dev.locksmith.internal.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.LockInfo;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.RedisServerExtension;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How a process that passed the reentrant lock among its own threads long enough lets another
 * process have it: its release leaves the lock, for a moment, to owners of other processes only,
 * and only when one of them asked to be woken. Owner ids are {@code <manager>:<thread>}; each
 * manager stands for a process.
 */
class TurnTakingTest {
    private static final String FIRST = "first-process:1";
    private static final String FIRST_OTHER_THREAD = "first-process:2";
    private static final String SECOND = "second-process:1";

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final LockKeys keys = LockKeys.of("locksmith:", "turns");
    private ScriptClient scripts;

    @BeforeEach
    void connect() {
        scripts = new ScriptClient(redis.uri());
    }

    @AfterEach
    void disconnect() {
        scripts.close();
    }

    @Test
    void aWaiterOfAnotherProcessIsLeftTheLockAndItsOwnProcessWaits() throws Exception {
        assertThat(acquire(FIRST)).containsExactly(1L, acquiredToken());
        assertThat(acquire(SECOND).get(0)).as("busy").isZero();
        assertThat(value()).as("the holder learns that another process waits").startsWith("W" + FIRST + "|");

        assertThat(release(FIRST, true)).as("released and left to other processes").isOne();

        assertThat(value()).isEqualTo("yfirst-process:");
        assertThat(scripts.redis().pttl(keys.lock())).isBetween(1L, ExclusiveKind.YIELD_MILLIS);
        List<Long> ownProcess = acquire(FIRST_OTHER_THREAD);
        assertThat(ownProcess.get(0)).as("a thread of the releasing process is not let in").isZero();
        assertThat(ownProcess.get(1)).as("it waits at most that moment").isBetween(0L, ExclusiveKind.YIELD_MILLIS);
        assertThat(acquire(SECOND).get(0)).as("the other process is").isEqualTo(1L);
        assertThat(value()).as("and its release gives the first process its turn back").startsWith("W" + SECOND + "|");
        assertThat(release(SECOND, false)).isZero();
        assertThat(scripts.redis().exists(keys.lock())).isZero();
    }

    @Test
    void withOnlyItsOwnThreadsWaitingTheLockIsReleasedAsUsual() throws Exception {
        acquire(FIRST);
        assertThat(acquire(FIRST_OTHER_THREAD).get(0)).isZero();
        assertThat(value()).as("a waiter of the same process").startsWith("w" + FIRST + "|");

        assertThat(release(FIRST, true)).isZero();

        assertThat(scripts.redis().exists(keys.lock())).as("nobody elsewhere to leave it to").isZero();
    }

    @Test
    void aLockLeftToOthersIsNotHeldForcedOrDescribed() throws Exception {
        acquire(FIRST);
        acquire(SECOND);
        release(FIRST, true);

        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            LockInfo info = locks.describe("turns");
            assertThat(info.holders()).isEmpty();
            assertThat(locks.getLock("turns").isLocked()).isFalse();
            assertThat(locks.getLock("turns").forceUnlock()).as("no hold was removed").isFalse();
        }
        assertThat(scripts.redis().exists(keys.lock())).isZero();
    }

    private long acquiredToken() {
        return Long.parseLong(scripts.redis().get(keys.fence()));
    }

    private List<Long> acquire(String owner) throws Exception {
        return scripts.acquire(keys, owner);
    }

    private long release(String owner, boolean othersFirst) throws Exception {
        return scripts.release(keys, owner, "1", othersFirst);
    }

    private String value() {
        return scripts.redis().get(keys.lock());
    }
}
