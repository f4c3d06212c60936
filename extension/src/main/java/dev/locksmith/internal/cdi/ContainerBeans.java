package dev.locksmith.internal.cdi;

import jakarta.enterprise.inject.Instance;

/**
 * Looks up an optional container object (the transaction registry, a managed scheduler) as a
 * CDI bean, without failing when there is none or more than one.
 */
final class ContainerBeans {
    private ContainerBeans() {
    }

    /**
     * @param beans the application's beans, as a portable extension's {@code BeanManager} or a
     *              CDI Lite synthetic bean's lookup gives them
     * @param type  the bean type
     * @param <T>   the bean type
     * @return the one bean of that type, or null when there is none or the choice is ambiguous
     */
    static <T> T find(Instance<Object> beans, Class<T> type) {
        Instance<T> instance = beans.select(type);
        return instance.isResolvable() ? instance.get() : null;
    }
}
