package dev.locksmith.internal.wire;

import java.util.Optional;

/**
 * A field of the read/write lock's hash, as {@code read-write.lua} writes and reads them: per
 * owner {@code r:<owner>} and {@code w:<owner>} (its read and its write hold), {@code e:<owner>}
 * (when its holds expire unless renewed) and {@code q:<owner>} (until when it waits to write); and
 * once per hash {@code f} (a waiter asks to be woken by the next release), {@code o} (the ring of
 * processes waiting to write) and {@code x} (the write lock's standing offer).
 *
 * @param kind  what the field says
 * @param owner the owner it is about; "" for the fields of the whole hash
 */
public record ReadWriteField(Kind kind, String owner) {

    /**
     * @throws IllegalArgumentException for an owner on a field of the whole hash
     */
    public ReadWriteField {
        if (!kind.perOwner() && !owner.isEmpty()) {
            throw new IllegalArgumentException("The read/write hash has one " + kind + " field, of no owner; got owner '"
                    + owner + "'");
        }
    }

    /**
     * What a field says, by how its name starts.
     */
    public enum Kind {
        /** An owner's read hold. */
        READ("r:"),
        /** An owner's write hold. */
        WRITE("w:"),
        /** When an owner's holds expire unless renewed, server ms. */
        EXPIRY("e:"),
        /** Until when an owner waits to write, server ms. */
        WAITING("q:"),
        /** A waiter asks to be woken by the next release. */
        WAKE("f"),
        /** The ring of processes waiting to write. */
        RING("o"),
        /** The write lock's offer to one process, or "" once a writer of it took it. */
        OFFER("x");

        private final String name;

        Kind(String name) {
            this.name = name;
        }

        /**
         * @return whether each owner has a field of its own of this kind
         */
        public boolean perOwner() {
            return name.endsWith(":");
        }
    }

    /**
     * @param read  true for the read side, false for the write side
     * @param owner an owner id
     * @return that owner's hold field on that side
     */
    public static ReadWriteField hold(boolean read, String owner) {
        return new ReadWriteField(read ? Kind.READ : Kind.WRITE, owner);
    }

    /**
     * @param owner an owner id
     * @return that owner's expiry field
     */
    public static ReadWriteField expiry(String owner) {
        return new ReadWriteField(Kind.EXPIRY, owner);
    }

    /**
     * @param field a field name of the hash
     * @return the field read, or empty for a name of another form (another version wrote it)
     */
    public static Optional<ReadWriteField> parse(String field) {
        for (Kind kind : Kind.values()) {
            if (kind.perOwner() ? field.startsWith(kind.name) : field.equals(kind.name)) {
                return Optional.of(new ReadWriteField(kind, field.substring(kind.name.length())));
            }
        }
        return Optional.empty();
    }

    /**
     * @return the field's name in the hash
     */
    public String text() {
        return kind.name + owner;
    }
}
