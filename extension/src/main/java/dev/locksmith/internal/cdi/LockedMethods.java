package dev.locksmith.internal.cdi;

import dev.locksmith.Locked;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * Every {@code @Locked} business method of the application, resolved when the container started,
 * and the lookup the interceptor makes on each call: by the intercepted instance's class and the
 * method, cached, so each method's binding is resolved once.
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
     * @param targetClass the class of the intercepted instance; may be a subclass the container generated
     * @param method      the intercepted method
     * @return the operation to run
     * @throws IllegalStateException if the method carries no {@code @Locked} at all
     */
    LockedOperation of(Class<?> targetClass, Method method) {
        return cache.computeIfAbsent(new Invoked(targetClass, method), this::resolve);
    }

    private LockedOperation resolve(Invoked invoked) {
        for (Class<?> type = invoked.targetClass(); type != null && type != Object.class; type = type.getSuperclass()) {
            Map<Method, LockedOperation> methods = byBeanClass.get(type);
            if (methods != null && methods.containsKey(invoked.method())) {
                return methods.get(invoked.method());
            }
        }
        return late.apply(beanClassOf(invoked.targetClass()), invoked.method());
    }

    /**
     * Skips the subclasses and proxies a container generates: they are synthetic or carry a
     * {@code $} marker that a user's top-level or nested class name does not end with.
     */
    private static Class<?> beanClassOf(Class<?> targetClass) {
        Class<?> type = targetClass;
        while (type.getSuperclass() != null && type.getSuperclass() != Object.class
                && (type.isSynthetic() || type.getName().contains("$$") || type.getName().contains("$Proxy$"))) {
            type = type.getSuperclass();
        }
        return type;
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

    private record Invoked(Class<?> targetClass, Method method) {
    }
}
