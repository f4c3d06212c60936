package dev.locksmith.internal.cdi;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Which methods of a bean class are business methods that {@code @Locked} applies to, as the
 * portable extension asks for each method of the container's {@code AnnotatedType}
 * ({@link LockedModel} asks the same of a CDI Lite container's model), and the method a use
 * found in that model names.
 */
final class LockedUses {
    private LockedUses() {
    }

    /**
     * @param declaringClass the class that declares the method
     * @param name           the method's name
     * @param parameterTypes the erasures of its parameter types, as {@link Class#getTypeName()} names them
     * @return the method, never a bridge the compiler made for it
     * @throws IllegalStateException if the class has no such method: it changed since it was read
     */
    static Method method(Class<?> declaringClass, String name, List<String> parameterTypes) {
        for (Method method : declaringClass.getDeclaredMethods()) {
            if (method.getName().equals(name) && !method.isBridge() && !method.isSynthetic()
                    && Arrays.stream(method.getParameterTypes()).map(Class::getTypeName).toList().equals(parameterTypes)) {
                return method;
            }
        }
        throw new IllegalStateException("Locksmith found @Locked on " + declaringClass.getName() + "#" + name
                + parameterTypes.stream().collect(Collectors.joining(", ", "(", ")")) + " when the application was built,"
                + " but the class it runs with has no such method. Rebuild the application");
    }

    /**
     * Life-cycle callbacks and initializer methods are not business methods: no interceptor
     * binding applies to them, so a type-level template need not fit them.
     *
     * @param method    a method of a bean class
     * @param annotated whether the method, as the container sees it, carries an annotation
     * @return whether an interceptor binding of the class applies to it
     */
    static boolean isBusinessMethod(Method method, Predicate<Class<? extends Annotation>> annotated) {
        int modifiers = method.getModifiers();
        return !Modifier.isStatic(modifiers) && !Modifier.isPrivate(modifiers) && !method.isBridge()
                && !method.isSynthetic() && method.getDeclaringClass() != Object.class
                && !annotated.test(PostConstruct.class) && !annotated.test(PreDestroy.class)
                && !annotated.test(Inject.class);
    }
}
