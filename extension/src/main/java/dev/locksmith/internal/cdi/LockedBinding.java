package dev.locksmith.internal.cdi;

import dev.locksmith.Locked;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the {@link Locked} that applies to a method. Jakarta EE 10's {@code InvocationContext}
 * cannot tell an interceptor its bindings, so they are read the way the container applies them:
 * from the method first, then from the class; each directly, or through a stereotype or another
 * interceptor binding that carries {@code @Locked}. Class annotations include inherited ones.
 */
final class LockedBinding {
    private LockedBinding() {
    }

    /**
     * @param methodAnnotations the method's annotations
     * @param typeAnnotations   the bean class's annotations, inherited ones included
     * @return the binding of the method, else of the class, else empty
     */
    static Optional<Locked> find(Iterable<? extends Annotation> methodAnnotations,
                                 Iterable<? extends Annotation> typeAnnotations) {
        Optional<Locked> onMethod = in(methodAnnotations);
        return onMethod.isPresent() ? onMethod : in(typeAnnotations);
    }

    /**
     * @param beanClass the bean class, or a subclass the container generated for it
     * @param method    the business method
     * @return the binding read by reflection, for an invocation the extension did not see at startup
     */
    static Optional<Locked> find(Class<?> beanClass, Method method) {
        return find(Arrays.asList(method.getAnnotations()), Arrays.asList(beanClass.getAnnotations()));
    }

    private static Optional<Locked> in(Iterable<? extends Annotation> annotations) {
        Set<Class<? extends Annotation>> seen = new HashSet<>();
        for (Annotation annotation : annotations) {
            Optional<Locked> found = search(annotation, seen);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static Optional<Locked> search(Annotation annotation, Set<Class<? extends Annotation>> seen) {
        if (annotation instanceof Locked locked) {
            return Optional.of(locked);
        }
        Class<? extends Annotation> type = annotation.annotationType();
        if (type.getName().startsWith("java.lang.annotation.") || !seen.add(type)) {
            return Optional.empty();
        }
        // A stereotype, or an interceptor binding that carries @Locked as a meta-annotation.
        for (Annotation meta : type.getAnnotations()) {
            Optional<Locked> found = search(meta, seen);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }
}
