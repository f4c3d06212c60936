package dev.locksmith.internal.cdi;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;

/**
 * Looks up an optional container object (the transaction registry, a managed scheduler) as a
 * CDI bean, without failing when there is none or more than one.
 */
final class ContainerBeans {
    private ContainerBeans() {
    }

    /**
     * @param beanManager the application's bean manager
     * @param type        the bean type
     * @param <T>         the bean type
     * @return the one bean of that type, or null when there is none or the choice is ambiguous
     */
    static <T> T find(BeanManager beanManager, Class<T> type) {
        Instance<T> instance = beanManager.createInstance().select(type);
        return instance.isResolvable() ? instance.get() : null;
    }
}
