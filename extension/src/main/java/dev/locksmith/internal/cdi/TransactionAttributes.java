package dev.locksmith.internal.cdi;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.Set;

/**
 * Reads whether a business method's declared transaction attribute excludes a transaction:
 * {@code @Transactional(NEVER | NOT_SUPPORTED)} of Jakarta Transactions, or
 * {@code @TransactionAttribute(NEVER | NOT_SUPPORTED)} of Enterprise Beans, on the method or else on
 * its class. Both APIs are optional, so their annotations are recognised by name and read by
 * reflection; this class names neither.
 */
final class TransactionAttributes {
    private static final Set<String> ANNOTATIONS = Set.of("jakarta.transaction.Transactional",
            "jakarta.ejb.TransactionAttribute");
    private static final Set<String> EXCLUDING = Set.of("NEVER", "NOT_SUPPORTED");

    private TransactionAttributes() {
    }

    /**
     * @param beanClass the bean class
     * @param method    the business method
     * @return the annotation that excludes a transaction, written as in code, such as
     *         {@code @Transactional(NOT_SUPPORTED)}; empty when none does
     */
    static Optional<String> excluding(Class<?> beanClass, Method method) {
        for (String annotation : ANNOTATIONS) {
            String value = valueOf(method.getAnnotations(), annotation);
            if (value == null) {
                value = valueOf(beanClass.getAnnotations(), annotation);
            }
            if (value != null && EXCLUDING.contains(value)) {
                return Optional.of("@" + annotation.substring(annotation.lastIndexOf('.') + 1) + "(" + value + ")");
            }
        }
        return Optional.empty();
    }

    private static String valueOf(Annotation[] annotations, String name) {
        for (Annotation annotation : annotations) {
            if (annotation.annotationType().getName().equals(name)) {
                try {
                    return String.valueOf(annotation.annotationType().getMethod("value").invoke(annotation));
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return null;
                }
            }
        }
        return null;
    }
}
