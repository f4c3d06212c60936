package dev.locksmith.internal.jta;

import dev.locksmith.internal.classpath.Jndi;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.function.Supplier;

/**
 * Finds the container's {@link TransactionSynchronizationRegistry}: at
 * {@code java:comp/TransactionSynchronizationRegistry} in JNDI, else as a CDI bean. It is looked
 * up on the thread of a business call, never in {@code afterCompletion}, where some servers have
 * no JNDI context. Once found it is kept: the registry is one object per server.
 */
final class TransactionRegistryLookup {
    static final String JNDI_NAME = "java:comp/TransactionSynchronizationRegistry";
    private static final Logger LOG = System.getLogger(TransactionRegistryLookup.class.getName());

    private final Supplier<TransactionSynchronizationRegistry> containerBean;
    private volatile TransactionSynchronizationRegistry found;
    private volatile boolean containerAsked;

    /**
     * @param containerBean the registry as a CDI bean, or null; asked only when JNDI has none
     */
    TransactionRegistryLookup(Supplier<TransactionSynchronizationRegistry> containerBean) {
        this.containerBean = containerBean;
    }

    /**
     * @return the registry, or null where there is no transaction manager (Java SE)
     */
    TransactionSynchronizationRegistry find() {
        TransactionSynchronizationRegistry registry = found;
        if (registry != null) {
            return registry;
        }
        registry = fromJndi();
        String source = JNDI_NAME;
        if (registry == null && !containerAsked) {
            // The container's beans are fixed once it runs: one answer is enough.
            registry = containerBean.get();
            containerAsked = true;
            source = "a CDI bean";
        }
        if (registry != null) {
            found = registry;
            LOG.log(Level.INFO, "Locksmith releases locks held in a JTA transaction after it completes"
                    + " (TransactionSynchronizationRegistry from " + source + ")");
        }
        return registry;
    }

    private TransactionSynchronizationRegistry fromJndi() {
        return Jndi.lookup(JNDI_NAME) instanceof TransactionSynchronizationRegistry registry ? registry : null;
    }
}
