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
 * A file of {@code long} slots that every JVM mapping it reads and writes atomically: how the
 * worker JVMs of one measurement, and the parent, share the {@link OccupancyProbe}'s and the
 * {@link HandOffProbe}'s counters.
 */
final class SharedSlots implements AutoCloseable {
    private static final VarHandle SLOT = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final FileChannel file;
    private final MappedByteBuffer slots;

    private SharedSlots(FileChannel file, MappedByteBuffer slots) {
        this.file = file;
        this.slots = slots;
    }

    /**
     * Maps {@code count} slots of {@code path}, creating it zeroed if absent.
     *
     * @param what what the file is for, in the error message
     * @throws UncheckedIOException if the file cannot be mapped
     */
    static SharedSlots map(Path path, int count, String what) {
        try {
            FileChannel file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            return new SharedSlots(file, file.map(FileChannel.MapMode.READ_WRITE, 0, (long) count * Long.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not map the " + what + " file " + path, e);
        }
    }

    /**
     * @return the slot's value before adding {@code delta}
     */
    long getAndAdd(int slot, long delta) {
        return (long) SLOT.getAndAdd(slots, slot * Long.BYTES, delta);
    }

    long get(int slot) {
        return (long) SLOT.getVolatile(slots, slot * Long.BYTES);
    }

    void set(int slot, long value) {
        SLOT.setVolatile(slots, slot * Long.BYTES, value);
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
