package dev.locksmith.internal.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedReadWriteLock;

/**
 * The two sides of one read/write lock, sharing one Redis hash.
 */
final class RedisReadWriteLock implements DistributedReadWriteLock {
    private final RedisLock read;
    private final RedisLock write;

    RedisReadWriteLock(String name, LockRuntime runtime) {
        this.read = new RedisLock(name, ReadWriteKind.READ, runtime);
        this.write = new RedisLock(name, ReadWriteKind.WRITE, runtime);
    }

    @Override
    public DistributedLock readLock() {
        return read;
    }

    @Override
    public DistributedLock writeLock() {
        return write;
    }

    @Override
    public String toString() {
        return "DistributedReadWriteLock[" + read.getName() + "]";
    }
}
