package dev.locksmith.internal.cdi;

import dev.locksmith.Locked;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * Every {@code @Locked} business method of the application, resolved when the container started,
 * and the lookup the interceptor makes on each call: by the intercepted bean's class (as CDI
 * gives it to the interceptor) and the method, cached, so each method's binding is resolved once.
 */
final class LockedMethods {
    private final Map<Class<?>, Map<Method, LockedOperation>> byBeanClass = new ConcurrentHashMap<>();
    private final Map<Invoked, LockedOperation> cache = new ConcurrentHashMap<>();
    private final BiFunction<Class<?>, Method, LockedOperation> late;

    /**
     * @param late resolves a method the extension did not see at startup, by reflection
     */
    LockedMethods(BiFunction<Class<?>, Method, LockedOperation> late) {
        this.late = late;
    }

    void add(Class<?> beanClass, Method method, LockedOperation operation) {
        byBeanClass.computeIfAbsent(beanClass, type -> new ConcurrentHashMap<>()).put(method, operation);
    }

    /**
     * @return how many locked methods were registered at startup
     */
    int size() {
        return byBeanClass.values().stream().mapToInt(Map::size).sum();
    }

    /**
     * @param beanClass the intercepted bean's class
     * @param method    the intercepted method
     * @return the operation to run
     * @throws IllegalStateException if the method carries no {@code @Locked} at all
     */
    LockedOperation of(Class<?> beanClass, Method method) {
        return cache.computeIfAbsent(new Invoked(beanClass, method), this::resolve);
    }

    private LockedOperation resolve(Invoked invoked) {
        for (Class<?> type = invoked.beanClass(); type != null && type != Object.class; type = type.getSuperclass()) {
            Map<Method, LockedOperation> methods = byBeanClass.get(type);
            if (methods != null && methods.containsKey(invoked.method())) {
                return methods.get(invoked.method());
            }
        }
        return late.apply(invoked.beanClass(), invoked.method());
    }

    /**
     * @param beanClass the bean class
     * @param method    a method of it
     * @return the binding that applies, checked to exist
     */
    static Locked bindingOf(Class<?> beanClass, Method method) {
        return LockedBinding.find(beanClass, method).orElseThrow(() -> new IllegalStateException(
                "The @Locked interceptor was called for " + beanClass.getName() + "#" + method.getName()
                        + ", which carries no @Locked on the method, the class or a stereotype"));
    }

    private record Invoked(Class<?> beanClass, Method method) {
    }
}
