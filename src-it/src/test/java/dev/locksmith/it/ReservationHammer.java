package dev.locksmith.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many clients reserving one unit at a time of one SKU, all at once, spread over every server and
 * every locked code path: request {@code i} goes to server {@code i % servers} by path
 * {@code i % 3}.
 */
final class ReservationHammer {
    private static final Duration DEADLINE = Duration.ofMinutes(4);

    private ReservationHammer() {
    }

    /**
     * How one request of the hammer reserves one unit.
     */
    @FunctionalInterface
    interface Reservation {
        /**
         * @return the server's answer
         */
        Reply reserve(SampleClient server, String sku, Via via);
    }

    /**
     * @return every reply, in no particular order, of reservations through {@code /api/stock/{sku}/reservations}
     */
    static List<Reply> hammer(List<SampleClient> servers, List<Via> paths, String sku, int requests, int threads)
            throws InterruptedException {
        return hammer(servers, paths, sku, requests, threads, (server, reserved, via) -> server.reserve(reserved, 1, via));
    }

    /**
     * @param reservation how each request reserves its unit
     * @return every reply, in no particular order
     */
    static List<Reply> hammer(List<SampleClient> servers, List<Via> paths, String sku, int requests, int threads,
            Reservation reservation) throws InterruptedException {
        List<Reply> replies = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger next = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(threads);
        ExecutorService clients = Executors.newFixedThreadPool(threads);
        try {
            for (int t = 0; t < threads; t++) {
                clients.execute(() -> {
                    try {
                        go.await();
                        for (int i = next.getAndIncrement(); i < requests; i = next.getAndIncrement()) {
                            SampleClient server = servers.get(i % servers.size());
                            Via via = paths.get(i % paths.size());
                            replies.add(reservation.reserve(server, sku, via));
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (RuntimeException e) {
                        replies.add(Reply.of(-1, "{\"code\": \"CLIENT\", \"message\": \"" + e + "\"}"));
                    } finally {
                        done.countDown();
                    }
                });
            }
            go.countDown();
            if (!done.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(requests + " reservations did not finish within " + DEADLINE + "; "
                        + replies.size() + " did");
            }
            return List.copyOf(replies);
        } finally {
            clients.shutdownNow();
        }
    }

    static long count(List<Reply> replies, int status) {
        return replies.stream().filter(reply -> reply.status() == status).count();
    }
}
