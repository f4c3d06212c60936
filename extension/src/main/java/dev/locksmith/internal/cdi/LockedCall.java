package dev.locksmith.internal.cdi;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.internal.lock.call.GuardedCall;
import dev.locksmith.internal.lock.call.UnlockDeferral;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * Runs one call of a {@code @Locked} method on the library's one guarded-call path
 * ({@link GuardedCall}), and remembers, per thread, which {@code @Locked} calls are running, for
 * {@link LockedTransactionGuard}.
 */
final class LockedCall {
    /** The {@code @Locked} calls running on this thread, innermost first. */
    private static final ThreadLocal<Deque<Running>> CALLS_ON_THIS_THREAD = new ThreadLocal<>();

    private LockedCall() {
    }

    /**
     * @return the lock of the innermost {@code @Locked} call running on this thread, or null
     */
    static DistributedLock innermostLock() {
        Running call = innermost();
        return call == null ? null : call.lock();
    }

    /**
     * @return the innermost {@code @Locked} call running on this thread, or null
     */
    static Running innermost() {
        Deque<Running> calls = CALLS_ON_THIS_THREAD.get();
        return calls == null ? null : calls.peek();
    }

    /**
     * @param locks     the application's manager
     * @param deferral  decides whether the release waits for a transaction; read after the lock
     *                  is taken, when the manager bean surely exists
     * @param operation the resolved {@code @Locked} use
     * @param arguments the call's arguments, for the lock name
     * @param timer     the timer of an EJB timeout call ({@code InvocationContext.getTimer()}), or null
     * @param call      the rest of the invocation
     * @return what the call returned, or what a skipped call returns (null, {@code Optional.empty()})
     * @throws LockTimeoutException if the lock was not acquired within the wait time and the use does not skip
     * @throws Exception            whatever the call threw; the lock is released either way
     */
    static Object run(LockManager locks, Supplier<UnlockDeferral> deferral, LockedOperation operation, Object[] arguments,
                      Object timer, Callable<Object> call) throws Exception {
        Instant slot;
        try {
            slot = operation.slot(arguments, timer);
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new LockException(operation.name().text(), operation.where() + ": " + e.getMessage(), e);
        }
        String name = operation.name().render(arguments, slot, operation.where());
        DistributedLock lock = lockOf(locks, operation, name);
        GuardedCall guarded = new GuardedCall(lock, operation.waitTime(), operation.leaseTime(), operation.minHold(),
                operation.skip(), operation.where(), operation.name().text())
                .forJob(operation.job() == null ? name : operation.job(), slot);
        DistributedLock held = guarded.lock();
        return guarded.call(new LazyDeferral(deferral), () -> {
            enter(new Running(held, operation));
            try {
                return call.call();
            } finally {
                leave();
            }
        }, operation.whenSkipped());
    }

    private static void enter(Running call) {
        Deque<Running> calls = CALLS_ON_THIS_THREAD.get();
        if (calls == null) {
            calls = new ArrayDeque<>(2);
            CALLS_ON_THIS_THREAD.set(calls);
        }
        calls.push(call);
    }

    private static void leave() {
        Deque<Running> calls = CALLS_ON_THIS_THREAD.get();
        calls.pop();
        if (calls.isEmpty()) {
            // Pooled server threads must not keep the application's objects alive.
            CALLS_ON_THIS_THREAD.remove();
        }
    }

    private static DistributedLock lockOf(LockManager locks, LockedOperation operation, String name) {
        return switch (operation.type()) {
            case REENTRANT -> locks.getLock(name);
            case FAIR -> locks.getFairLock(name);
            case READ -> locks.getReadWriteLock(name).readLock();
            case WRITE -> locks.getReadWriteLock(name).writeLock();
        };
    }

    /**
     * One {@code @Locked} call that runs on this thread, holding its lock.
     *
     * @param lock      the lock it holds
     * @param operation its resolved use
     */
    record Running(DistributedLock lock, LockedOperation operation) {
    }

    /**
     * Asks for the deferral only at release time: the manager bean, which wires it, is created on
     * first use, which may be this very call.
     */
    private record LazyDeferral(Supplier<UnlockDeferral> current) implements UnlockDeferral {
        @Override
        public boolean defer(DistributedLock lock) {
            return current.get().defer(lock);
        }
    }
}
