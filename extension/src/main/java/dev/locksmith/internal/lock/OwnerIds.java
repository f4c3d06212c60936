package dev.locksmith.internal.lock;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Names holders and release requests. An owner id is this manager's random id plus the thread
 * id, so two managers in one JVM, or two JVMs, never share an owner.
 */
final class OwnerIds {
    private final String managerId = UUID.randomUUID().toString();
    private final AtomicLong requests = new AtomicLong();
    // A string, which no class loader owns: a pooled thread that outlives the application keeps no class alive.
    private final ThreadLocal<String> currentOwner = ThreadLocal.withInitial(() -> of(Thread.currentThread()));

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
