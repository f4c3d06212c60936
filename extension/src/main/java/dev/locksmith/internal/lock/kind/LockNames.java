package dev.locksmith.internal.lock.kind;

/**
 * The rule for lock names: 1..512 characters, not blank.
 */
public final class LockNames {
    /** The longest name allowed. */
    public static final int MAX_LENGTH = 512;

    private LockNames() {
    }

    /**
     * @param name a lock name from the caller
     * @return the same name
     * @throws IllegalArgumentException naming the bad value
     */
    public static String require(String name) {
        if (name == null) {
            throw new IllegalArgumentException("Lock name is null; give a name of 1.." + MAX_LENGTH + " characters");
        }
        if (name.isBlank()) {
            throw new IllegalArgumentException("Lock name '" + name + "' is blank; give a name of 1.." + MAX_LENGTH
                    + " characters with at least one non-space");
        }
        if (name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("Lock name '" + name.substring(0, 40) + "...' has " + name.length()
                    + " characters; the limit is " + MAX_LENGTH + ". Hash long identifiers into the name.");
        }
        return name;
    }
}
