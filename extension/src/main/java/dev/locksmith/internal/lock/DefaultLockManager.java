package dev.locksmith.internal.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedReadWriteLock;
import dev.locksmith.LockManager;
import dev.locksmith.LockTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The {@link LockManager} behind {@link dev.locksmith.Locksmith#builder()}: hands out lock views
 * over one shared {@link LockRuntime}.
 */
public final class DefaultLockManager implements LockManager {
    private final LockRuntime runtime;
    private volatile UnlockDeferral unlockDeferral = UnlockDeferral.NONE;

    /**
     * Connects to Redis and starts the watchdog.
     *
     * @param settings validated settings
     */
    public DefaultLockManager(LockSettings settings) {
        this.runtime = new LockRuntime(settings);
    }

    /**
     * @return the shared runtime, for the CDI and transaction support
     */
    public LockRuntime runtime() {
        return runtime;
    }

    /**
     * Lets {@link #callWithLock} hand its release to {@code deferral}, which the CDI support uses
     * to release after the current JTA transaction completes.
     *
     * @param deferral decides per release whether it waits; {@link UnlockDeferral#NONE} to release at once
     */
    public void deferUnlocksWith(UnlockDeferral deferral) {
        this.unlockDeferral = deferral == null ? UnlockDeferral.NONE : deferral;
    }

    @Override
    public DistributedLock getLock(String name) {
        runtime.checkOpen();
        return new RedisLock(name, ExclusiveKind.INSTANCE, runtime);
    }

    @Override
    public DistributedLock getFairLock(String name) {
        runtime.checkOpen();
        return new RedisLock(name, FairKind.INSTANCE, runtime);
    }

    @Override
    public DistributedReadWriteLock getReadWriteLock(String name) {
        runtime.checkOpen();
        return new RedisReadWriteLock(name, runtime);
    }

    @Override
    public DistributedLock getMultiLock(DistributedLock... locks) {
        runtime.checkOpen();
        return new MultiLock(locks == null ? null : Arrays.asList(locks));
    }

    @Override
    public <T> T callWithLock(String name, Duration waitTime, Callable<T> action) throws Exception {
        if (waitTime == null || waitTime.isNegative()) {
            throw new IllegalArgumentException("Wait time " + waitTime + " for lock '" + name
                    + "' must be zero or positive, for example Duration.ofSeconds(5)");
        }
        if (action == null) {
            throw new IllegalArgumentException("The action to run under lock '" + name + "' is null");
        }
        DistributedLock lock = getLock(name);
        if (!lock.tryLock(waitTime.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new LockTimeoutException("Lock '" + name + "' was not acquired within " + waitTime);
        }
        try {
            return action.call();
        } finally {
            if (!unlockDeferral.defer(lock)) {
                lock.unlock();
            }
        }
    }

    @Override
    public void close() {
        runtime.close();
    }
}
