package dev.locksmith.internal.cdi;

import dev.locksmith.Locked;
import java.lang.reflect.Method;

/**
 * One business method that {@code @Locked} applies to, as the container's discovery found it.
 *
 * @param beanClass the bean class
 * @param method    the business method, possibly declared by a superclass
 * @param locked    the binding that applies to it
 */
record LockedUse(Class<?> beanClass, Method method, Locked locked) {
}
