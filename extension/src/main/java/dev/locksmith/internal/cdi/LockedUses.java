package dev.locksmith.internal.cdi;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which methods of a bean class are business methods that {@code @Locked} applies to. The
 * portable extension asks for each method of the container's {@code AnnotatedType}; the build
 * compatible extension, which sees only class names, reads the class by reflection.
 */
final class LockedUses {
    private LockedUses() {
    }

    /**
     * @param beanClass a managed bean's class
     * @return every business method of it, declared or inherited, that {@code @Locked} applies to
     */
    static List<LockedUse> of(Class<?> beanClass) {
        if (beanClass.isAnnotationPresent(jakarta.interceptor.Interceptor.class)) {
            return List.of();
        }
        List<LockedUse> uses = new ArrayList<>();
        Set<String> overridden = new HashSet<>();
        for (Class<?> type = beanClass; type != null && type != Object.class; type = type.getSuperclass()) {
            for (Method method : type.getDeclaredMethods()) {
                if (isBusinessMethod(method, method::isAnnotationPresent)
                        && overridden.add(method.getName() + Arrays.toString(method.getParameterTypes()))) {
                    LockedBinding.find(beanClass, method).ifPresent(locked ->
                            uses.add(new LockedUse(beanClass, method, locked)));
                }
            }
        }
        return uses;
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
