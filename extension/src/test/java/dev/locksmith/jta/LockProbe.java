package dev.locksmith.jta;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;

/**
 * Another JVM that makes one attempt at a lock: {@code LockProbe redisUri lockName} prints
 * {@code RESULT BUSY} or {@code RESULT ACQUIRED} (and releases it again), then exits.
 */
public final class LockProbe {
    private LockProbe() {
    }

    public static void main(String[] args) {
        try (LockManager locks = Locksmith.builder().redisUri(args[0]).build()) {
            DistributedLock lock = locks.getLock(args[1]);
            if (lock.tryLock()) {
                lock.unlock();
                System.out.println("RESULT ACQUIRED");
            } else {
                System.out.println("RESULT BUSY");
            }
        }
    }
}
