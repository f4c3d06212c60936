package dev.locksmith.testing;

import com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionSynchronizationRegistryImple;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * Narayana, a real JTA transaction manager, for tests: its transaction manager and its
 * synchronization registry, bound in {@link InMemoryNaming} where a server binds it.
 */
public final class Transactions {
    /** Where Jakarta EE servers bind the registry. */
    public static final String REGISTRY_JNDI_NAME = "java:comp/TransactionSynchronizationRegistry";
    /** Where Narayana's CDI support looks for the transaction manager. */
    public static final String MANAGER_JNDI_NAME = "java:/TransactionManager";

    private Transactions() {
    }

    /**
     * @return Narayana's transaction manager (one per JVM)
     */
    public static TransactionManager manager() {
        return com.arjuna.ats.jta.TransactionManager.transactionManager();
    }

    /**
     * @return a synchronization registry over that manager
     */
    public static TransactionSynchronizationRegistry registry() {
        return new TransactionSynchronizationRegistryImple();
    }

    /**
     * Binds the registry at {@link #REGISTRY_JNDI_NAME} and the manager at
     * {@link #MANAGER_JNDI_NAME}, as a server does.
     */
    public static void bindInJndi() {
        InMemoryNaming.bind(REGISTRY_JNDI_NAME, registry());
        InMemoryNaming.bind(MANAGER_JNDI_NAME, manager());
    }

    /**
     * Rolls back whatever transaction a failed test left on this thread.
     */
    public static void rollBackLeftovers() {
        try {
            if (manager().getTransaction() != null) {
                manager().rollback();
            }
        } catch (Exception e) {
            throw new IllegalStateException("Could not roll back a transaction the test left open", e);
        }
    }
}
