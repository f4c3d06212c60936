package dev.locksmith.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Counts, per lock, the threads inside its critical section, in a memory-mapped file that every
 * worker JVM maps. For an exclusive lock, a thread that enters and finds someone already there,
 * in this JVM or another, has caught the lock letting two holders in: a benchmark of a broken
 * lock is worthless, so every cycle passes through here (a shared lock's too, so all cycles cost
 * the same).
 */
final class OccupancyProbe implements AutoCloseable {
    private static final VarHandle SLOT = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final FileChannel file;
    private final MappedByteBuffer slots;

    private OccupancyProbe(FileChannel file, MappedByteBuffer slots) {
        this.file = file;
        this.slots = slots;
    }

    /**
     * Maps {@code path}, creating it zeroed if absent.
     *
     * @param locks how many locks to watch
     */
    static OccupancyProbe map(Path path, int locks) {
        try {
            FileChannel file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            return new OccupancyProbe(file, file.map(FileChannel.MapMode.READ_WRITE, 0, (long) locks * Long.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not map the occupancy file " + path, e);
        }
    }

    /**
     * Call right after acquiring lock {@code lock}.
     *
     * @return the holders inside now, the caller included: more than 1 for an exclusive lock is a
     *         mutual exclusion violation
     */
    long enter(int lock) {
        return (long) SLOT.getAndAdd(slots, lock * Long.BYTES, 1L) + 1;
    }

    /**
     * Call right before releasing lock {@code lock}.
     *
     * @return the holders that were inside, the caller included: more than 1 for an exclusive lock
     *         is a mutual exclusion violation
     */
    long leave(int lock) {
        return (long) SLOT.getAndAdd(slots, lock * Long.BYTES, -1L);
    }

    @Override
    public void close() {
        try {
            file.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
