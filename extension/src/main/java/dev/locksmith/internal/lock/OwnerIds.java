package dev.locksmith.internal.lock;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Names holders and release requests. An owner id is this manager's random id plus the thread
 * id, so two managers in one JVM, or two JVMs, never share an owner.
 */
final class OwnerIds {
    private static final SecureRandom RANDOM = new SecureRandom();

    // 64 random bits in 11 characters of [A-Za-z0-9_-] (two of ten thousand managers alive at once
    // share an id with a chance of 3e-12): the ring of waiting processes in a lock's value repeats
    // the id of each, and every hand-off reads and rewrites that value, at a cost per byte (a
    // UUID's 36 characters made the scripts 26 us slower per cycle with 32 processes waiting than
    // with 2; 16 characters, 12 us).
    private final String managerId = newManagerId();
    private final AtomicLong requests = new AtomicLong();
    // A string, which no class loader owns: a pooled thread that outlives the application keeps no class alive.
    private final ThreadLocal<String> currentOwner = ThreadLocal.withInitial(() -> of(Thread.currentThread()));

    private static String newManagerId() {
        byte[] bits = new byte[8];
        RANDOM.nextBytes(bits);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bits);
    }

    /**
     * @return this manager's id, the first part of each of its owner ids
     */
    String managerId() {
        return managerId;
    }

    String current() {
        return currentOwner.get();
    }

    @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19, the library runs on 17
    String of(Thread thread) {
        return managerId + ":" + thread.getId();
    }

    /**
     * @return an id no other release request of this manager has; Redis keeps it beside the owner
     *         id, which names the manager
     */
    String nextRequestId() {
        return Long.toString(requests.incrementAndGet());
    }
}
