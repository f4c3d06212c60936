package dev.locksmith.it;

import java.util.Locale;

/**
 * The sample's locked reservation paths, as its {@code via} query parameter names them.
 */
enum Via {
    /** A CDI bean with {@code @Locked} and {@code @Transactional}. */
    CDI,
    /** A stateless EJB with {@code @Locked} and container-managed transactions. */
    EJB,
    /** {@code LockManager.callWithLock} inside {@code @Transactional}. */
    MANAGER;

    String parameter() {
        return name().toLowerCase(Locale.ROOT);
    }
}
