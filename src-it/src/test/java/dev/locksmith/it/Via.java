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
    /** A singleton EJB with {@code READ} concurrency, {@code @Locked} and container-managed transactions. */
    SINGLETON,
    /** {@code LockManager.callWithLock} inside {@code @Transactional}. */
    MANAGER;

    /**
     * @return the session-bean paths, whose exceptions a container could wrap
     */
    boolean isSessionBean() {
        return this == EJB || this == SINGLETON;
    }

    String parameter() {
        return name().toLowerCase(Locale.ROOT);
    }
}
