package dev.locksmith.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedMultiLock;
import dev.locksmith.LockManager;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link LockContract}, run by a multi-lock over a reentrant, a fair and a write lock, and what
 * a multi-lock promises besides: its fencing tokens are its locks' own, one each; what a set of
 * names has no single answer for is said, not borrowed from one of its locks; its hold count is its
 * own; and a multi-lock among the locks adds its own locks.
 *
 * <pre>{@code
 * class OurRedisMultiLockContractTest extends MultiLockContract {
 *     @Override
 *     protected RedisUnderTest redis() {
 *         return new StagingRedis();
 *     }
 * }
 * }</pre>
 */
public abstract class MultiLockContract extends LockContract {

    /**
     * @return the multi-lock over the reentrant lock {@code name-a}, the fair lock {@code name-b}
     *         and the write lock {@code name-c}
     */
    @Override
    protected DistributedLock lockOf(LockManager locks, String name) {
        return locks.getMultiLock(locks.getLock(name + "-a"), locks.getFairLock(name + "-b"),
                locks.getReadWriteLock(name + "-c").writeLock());
    }

    @Override
    protected List<String> namesOf(String name) {
        return List.of(name + "-a", name + "-b", name + "-c");
    }

    @Override
    protected List<Long> fencingTokens(DistributedLock lock) {
        return ((DistributedMultiLock) lock).fencingTokens();
    }

    @Test
    void aMultiLockHasNoTokenOfItsOwnAndNamesWhereEachLocksTokenIs() {
        LockManager locks = manager();
        DistributedLock first = locks.getLock("own-a");
        DistributedLock second = locks.getLock("own-b");
        DistributedMultiLock both = locks.getMultiLockOf(first, second);
        both.lock();

        assertThat(both.fencingTokens()).containsExactly(first.fencingToken(), second.fencingToken());
        assertThat(both.locks()).containsExactly(first, second);
        assertThatThrownBy(((DistributedLock) both)::fencingToken).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("multi[own-a,own-b]").hasMessageContaining("fencingTokens()");
        both.unlock();
    }

    @Test
    void theHoldCountIsTheMultiLocksOwnNotThatOfAPartHeldAlone() {
        LockManager locks = manager();
        DistributedLock first = locks.getLock("count-a");
        DistributedLock second = locks.getLock("count-b");
        DistributedMultiLock both = locks.getMultiLockOf(first, second);
        first.lock();
        second.lock();

        assertThat(both.getHoldCount()).as("each part held alone, the multi-lock not at all").isZero();
        both.lock();
        assertThat(both.getHoldCount()).isOne();
        assertThat(first.getHoldCount()).isEqualTo(2);
        both.unlock();

        assertThat(both.getHoldCount()).isZero();
        assertThat(first.getHoldCount()).as("the hold taken alone stays").isOne();
        second.unlock();
        first.unlock();
    }

    @Test
    void aMultiLockAmongTheLocksAddsItsOwnLocks() {
        LockManager locks = manager();
        DistributedLock inner = locks.getMultiLock(locks.getLock("nested-a"), locks.getLock("nested-b"));
        DistributedMultiLock outer = locks.getMultiLockOf(inner, locks.getLock("nested-c"));

        outer.lock();

        assertThat(outer.getName()).isEqualTo("multi[nested-a,nested-b,nested-c]");
        assertThat(outer.fencingTokens()).hasSize(3);
        outer.unlock();
        assertThat(leftBehind()).isEmpty();
    }
}
