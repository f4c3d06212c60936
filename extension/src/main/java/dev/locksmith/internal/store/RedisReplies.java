package dev.locksmith.internal.store;

import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.LockException;
import dev.locksmith.internal.redis.RedisErrors;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Blocks for one Redis reply. A round trip is bounded by the command timeout and is not cut
 * short by an interrupt: abandoning a sent acquisition would leave a hold in Redis that nobody
 * here knows of. The interrupt status is kept for the caller to act on.
 */
public final class RedisReplies {
    private final long limitNanos;
    private final LockObserver observer;

    /**
     * @param commandTimeout the client's command timeout
     * @param observer       told of every failed reply
     */
    public RedisReplies(Duration commandTimeout, LockObserver observer) {
        // Lettuce times the command out itself; this bound only guards against a reply that never completes.
        this.limitNanos = commandTimeout.multipliedBy(2).plusSeconds(1).toNanos();
        this.observer = observer;
    }

    /**
     * @return the longest {@link #await} blocks for one reply, in nanoseconds
     */
    public long longestWaitNanos() {
        return limitNanos;
    }

    /**
     * @param reply the pending reply
     * @param what  what was asked, for the message of a failure
     * @param <T>   the reply's type
     * @return the reply
     * @throws LockException if Redis answered with an error or not at all
     */
    public <T> T await(CompletionStage<T> reply, String what) {
        return await(reply, what, "");
    }

    /**
     * Like {@link #await(CompletionStage, String)}, with the message in two parts that are joined
     * only for a failure: what was done and to what, such as {@code "Acquiring "} and
     * {@code "lock 'orders'"}.
     *
     * @param <T> the reply's type
     * @return the reply
     * @throws LockException if Redis answered with an error or not at all
     */
    public <T> T await(CompletionStage<T> reply, String action, String subject) {
        Future<T> future = reply.toCompletableFuture();
        boolean interrupted = false;
        long deadline = System.nanoTime() + limitNanos;
        try {
            while (true) {
                try {
                    return future.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    observer.redisError(RedisErrors.kind(e.getCause()));
                    throw failure(action + subject, e.getCause());
                } catch (TimeoutException e) {
                    // Not cancelled: whoever cleans up after an uncertain call chains on its real end.
                    observer.redisError("transient");
                    throw new LockException(action + subject + ": Redis did not answer within "
                            + Duration.ofNanos(limitNanos).toMillis() + " ms", e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static LockException failure(String what, Throwable cause) {
        Throwable root = cause instanceof CompletionException && cause.getCause() != null ? cause.getCause() : cause;
        if (root instanceof LockException lockException) {
            return lockException;
        }
        return new LockException(what + " failed: " + RedisErrors.describe(root), root);
    }
}
