package dev.locksmith.internal.redis;

import io.lettuce.core.AbstractRedisClient;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * How long closing a manager waits for Lettuce, and what it does when Lettuce does not finish:
 * it logs a WARNING naming what did not stop, and returns. A container undeploying an
 * application must not hang because one of Lettuce's threads is stuck in a task, so every wait
 * on Lettuce's shutdown has this deadline.
 */
final class ShutdownBound {
    /** Lettuce's quiet period: none, since nothing of the manager submits work after close. */
    static final Duration QUIET_PERIOD = Duration.ZERO;
    /** How long Lettuce may take to close connections, and then to stop its threads: each wait's limit. */
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    private static final Logger LOG = System.getLogger(ShutdownBound.class.getName());

    private ShutdownBound() {
    }

    /**
     * Starts shutting {@code client} down within the bounds: it closes every connection it made,
     * then lets go of its threads.
     *
     * @return completes when the client has shut down
     */
    static CompletableFuture<Void> shutdown(AbstractRedisClient client) {
        return client.shutdownAsync(QUIET_PERIOD.toMillis(), TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Waits for {@code stopping} until {@link #TIMEOUT} has passed.
     *
     * @param stopping   completes when what is being stopped has stopped
     * @param what       what is being done, for the log (such as "Closing the Redis connections")
     * @param stillThere when it did not finish, says what is still running (such as thread names)
     * @return true if it finished in time; false after logging a WARNING
     * @throws ExecutionException if stopping failed
     */
    static boolean await(CompletableFuture<?> stopping, String what, Supplier<String> stillThere)
            throws ExecutionException {
        try {
            stopping.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            LOG.log(Level.WARNING, what + " did not finish within " + TIMEOUT.toMillis() + " ms; the lock manager"
                    + " closes without waiting longer" + stillThere.get());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.log(Level.WARNING, what + " was interrupted; the lock manager closes without waiting longer"
                    + stillThere.get());
            return false;
        }
    }
}
