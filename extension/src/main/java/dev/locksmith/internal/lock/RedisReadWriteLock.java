package dev.locksmith.internal.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedReadWriteLock;
import dev.locksmith.internal.lock.kind.ReadWriteKind;

/**
 * The two sides of one read/write lock, sharing one Redis hash.
 */
final class RedisReadWriteLock implements DistributedReadWriteLock {
    private final RedisLock read;
    private final RedisLock write;

    RedisReadWriteLock(String name, LockContext context) {
        this.read = new RedisLock(name, ReadWriteKind.READ, context);
        this.write = new RedisLock(name, ReadWriteKind.WRITE, context);
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
