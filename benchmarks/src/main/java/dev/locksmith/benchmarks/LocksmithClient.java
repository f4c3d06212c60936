package dev.locksmith.benchmarks;

import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;

/**
 * Locksmith as a user builds it, with every default (watchdog lease, one multiplexed connection).
 */
final class LocksmithClient implements LockClient {
    private final LockManager locks;

    LocksmithClient(String redisUri) {
        this.locks = Locksmith.builder().redisUri(redisUri).build();
    }

    @Override
    public CycleLock lockFor(String name) {
        return CycleLock.of(locks.getLock(name));
    }

    @Override
    public void close() {
        locks.close();
    }
}
