package dev.locksmith.internal.cdi;

import jakarta.enterprise.inject.spi.BeanManager;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.ScheduledExecutorService;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Finds the {@code ManagedScheduledExecutorService} the watchdog runs on: at the JNDI name of
 * {@code locksmith.executor}, else a CDI bean of that type (Jakarta EE 11 has one). Only when
 * neither exists (Java SE, Weld SE) does the watchdog get a private daemon thread. Locksmith
 * never calls a managed executor's lifecycle methods, and never publishes one as a bean: a
 * container that has its own would then see two.
 */
final class WatchdogSchedulerLookup {
    private static final Logger LOG = System.getLogger(WatchdogSchedulerLookup.class.getName());
    private static final String MANAGED_TYPE = "jakarta.enterprise.concurrent.ManagedScheduledExecutorService";

    private WatchdogSchedulerLookup() {
    }

    /**
     * @param jndiName    the configured JNDI name
     * @param beanManager for the CDI fallback
     * @return the container's scheduler, or null for a private one
     * @throws IllegalArgumentException if the name is bound to something that is not a scheduler
     */
    static ScheduledExecutorService find(String jndiName, BeanManager beanManager) {
        Object bound = lookup(jndiName);
        if (bound instanceof ScheduledExecutorService scheduler) {
            LOG.log(Level.INFO, "Locksmith's watchdog runs on the managed scheduler at " + jndiName);
            return scheduler;
        }
        if (bound != null) {
            throw new IllegalArgumentException(ConfigKey.EXECUTOR.key() + " = '" + jndiName + "' names a "
                    + bound.getClass().getName() + ", not a ManagedScheduledExecutorService. Name the server's"
                    + " managed scheduled executor, for example " + ConfigKey.EXECUTOR.defaultValue());
        }
        ScheduledExecutorService bean = managedBean(beanManager);
        if (bean != null) {
            LOG.log(Level.INFO, "Locksmith's watchdog runs on the ManagedScheduledExecutorService bean;"
                    + " nothing is bound at " + jndiName);
            return bean;
        }
        LOG.log(Level.INFO, "No ManagedScheduledExecutorService at " + jndiName + " nor as a CDI bean (Java SE?):"
                + " Locksmith's watchdog runs on a private daemon scheduler");
        return null;
    }

    private static Object lookup(String jndiName) {
        try {
            InitialContext context = new InitialContext();
            try {
                return context.lookup(jndiName);
            } finally {
                context.close();
            }
        } catch (NamingException e) {
            return null;
        }
    }

    private static ScheduledExecutorService managedBean(BeanManager beanManager) {
        Class<?> managedType;
        try {
            managedType = Class.forName(MANAGED_TYPE, false, WatchdogSchedulerLookup.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
        return (ScheduledExecutorService) ContainerBeans.find(beanManager, managedType);
    }
}
