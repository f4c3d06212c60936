package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code callWithLock}: the action's own exception reaches the caller, with a lock lost
 * meanwhile attached to it, never in its place; a loss after an action that returned normally
 * is reported by itself.
 */
class GuardedCallTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void theActionsExceptionWinsAndALossIsAttachedToIt() {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build();
             LockManager operator = Locksmith.builder().redisUri(redis.uri()).build()) {
            Throwable failure = catchThrowable(() -> locks.callWithLock("guarded", Duration.ofSeconds(1), () -> {
                operator.getLock("guarded").forceUnlock();
                throw new IllegalStateException("the action failed");
            }));

            assertThat(failure).isInstanceOf(IllegalStateException.class).hasMessage("the action failed");
            assertThat(failure.getSuppressed()).singleElement().isInstanceOf(LockLostException.class);
        }
    }

    @Test
    void aLossAfterAnActionThatReturnedIsThrownByItself() {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build();
             LockManager operator = Locksmith.builder().redisUri(redis.uri()).build()) {
            Throwable failure = catchThrowable(() -> locks.callWithLock("guarded", Duration.ofSeconds(1), () -> {
                operator.getLock("guarded").forceUnlock();
                return "done";
            }));

            assertThat(failure).isInstanceOf(LockLostException.class).hasMessageContaining("'guarded'");
        }
    }

    @Test
    void aCheckedExceptionOfTheActionReachesTheCallerAsItself() {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            Throwable failure = catchThrowable(() -> locks.callWithLock("checked", Duration.ofSeconds(1), () -> {
                throw new java.io.IOException("disk full");
            }));

            assertThat(failure).isInstanceOf(java.io.IOException.class).hasMessage("disk full");
            assertThat(locks.getLock("checked").isLocked()).isFalse();
        }
    }
}
