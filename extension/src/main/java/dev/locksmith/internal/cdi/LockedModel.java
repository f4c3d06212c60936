package dev.locksmith.internal.cdi;

import dev.locksmith.Locked;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.lang.model.AnnotationInfo;
import jakarta.enterprise.lang.model.declarations.ClassInfo;
import jakarta.enterprise.lang.model.declarations.MethodInfo;
import jakarta.enterprise.lang.model.types.Type;
import jakarta.inject.Inject;
import java.lang.annotation.Inherited;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@code @Locked} uses of a bean class as a CDI Lite container's annotation model
 * ({@code jakarta.enterprise.lang.model}) shows them. The model has every annotation
 * transformation applied (a build compatible extension's {@code @Enhancement}, Quarkus's
 * annotation transformers), which reading the class by reflection would miss: the container would
 * then intercept a method that Locksmith never checked. Which methods count, and which binding
 * applies, follows {@link LockedUses} and {@link LockedBinding}, which read the portable
 * extension's {@code AnnotatedType} and classes.
 */
final class LockedModel {
    // java.lang.reflect.Modifier's BRIDGE and SYNTHETIC are not public.
    private static final int BRIDGE = 0x0040;
    private static final int SYNTHETIC = 0x1000;

    private LockedModel() {
    }

    /**
     * @param beanClass a managed bean's class, as the container's model shows it
     * @return every business method of it, declared or inherited, that {@code @Locked} applies to
     */
    static List<Declared> uses(ClassInfo beanClass) {
        if (beanClass.hasAnnotation(jakarta.interceptor.Interceptor.class)) {
            return List.of();
        }
        List<ClassInfo> types = new ArrayList<>();
        for (ClassInfo type = beanClass; type != null && !type.name().equals(Object.class.getName());
                type = type.superClassDeclaration()) {
            types.add(type);
        }
        List<String> hierarchy = types.stream().map(ClassInfo::name).toList();
        // A container's methods() may or may not list the superclasses' methods, in no set order,
        // and lists the interfaces' (whose bindings CDI ignores). Of one signature, the most
        // derived declaration counts, and of one declaration the first seen: the bean class's
        // model, which has the transformations applied to the bean.
        Map<String, MethodInfo> bySignature = new LinkedHashMap<>();
        for (ClassInfo type : types) {
            for (MethodInfo method : type.methods()) {
                if (hierarchy.contains(method.declaringClass().name()) && isBusinessMethod(method)) {
                    bySignature.merge(method.name() + parameterTypes(method), method, (seen, other) ->
                            hierarchy.indexOf(seen.declaringClass().name())
                                    <= hierarchy.indexOf(other.declaringClass().name()) ? seen : other);
                }
            }
        }
        List<Declared> uses = new ArrayList<>();
        for (MethodInfo method : bySignature.values()) {
            binding(method, beanClass).ifPresent(locked -> uses.add(new Declared(beanClass, method.declaringClass(),
                    method.name(), parameterTypes(method), locked)));
        }
        return uses;
    }

    private static List<String> parameterTypes(MethodInfo method) {
        return method.parameters().stream().map(parameter -> erasure(parameter.type())).toList();
    }

    /**
     * As {@link LockedUses#isBusinessMethod}: life-cycle callbacks and initializer methods take no
     * interceptor binding.
     */
    private static boolean isBusinessMethod(MethodInfo method) {
        int modifiers = method.modifiers();
        return !method.isConstructor() && !method.isStatic() && !Modifier.isPrivate(modifiers)
                && (modifiers & (BRIDGE | SYNTHETIC)) == 0
                && !method.hasAnnotation(PostConstruct.class) && !method.hasAnnotation(PreDestroy.class)
                && !method.hasAnnotation(Inject.class);
    }

    /**
     * As {@link LockedBinding#find(Iterable, Iterable)}: the method's binding, else the class's,
     * where the class's include those it inherits.
     */
    private static Optional<AnnotationInfo> binding(MethodInfo method, ClassInfo beanClass) {
        Optional<AnnotationInfo> onMethod = in(method.annotations(), new HashSet<>());
        if (onMethod.isPresent()) {
            return onMethod;
        }
        for (ClassInfo type = beanClass; type != null && !type.name().equals(Object.class.getName());
                type = type.superClassDeclaration()) {
            Collection<AnnotationInfo> annotations = type == beanClass ? type.annotations()
                    : type.annotations(annotation -> annotation.declaration().hasAnnotation(Inherited.class));
            Optional<AnnotationInfo> onType = in(annotations, new HashSet<>());
            if (onType.isPresent()) {
                return onType;
            }
        }
        return Optional.empty();
    }

    /**
     * @return {@code @Locked} among the annotations, or carried by a stereotype or interceptor
     *         binding among them
     */
    private static Optional<AnnotationInfo> in(Collection<AnnotationInfo> annotations, Set<String> seen) {
        for (AnnotationInfo annotation : annotations) {
            String name = annotation.name();
            if (name.equals(Locked.class.getName())) {
                return Optional.of(annotation);
            }
            if (!name.startsWith("java.") && !name.startsWith("jakarta.") && seen.add(name)) {
                Optional<AnnotationInfo> carried = in(annotation.declaration().annotations(), seen);
                if (carried.isPresent()) {
                    return carried;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * @return the type's erasure, named as {@link Class#getTypeName()} names it
     */
    private static String erasure(Type type) {
        return switch (type.kind()) {
            case PRIMITIVE -> type.asPrimitive().name();
            case CLASS -> type.asClass().declaration().name();
            case ARRAY -> erasure(type.asArray().componentType()) + "[]";
            case PARAMETERIZED_TYPE -> type.asParameterizedType().declaration().name();
            case TYPE_VARIABLE -> type.asTypeVariable().bounds().isEmpty() ? Object.class.getName()
                    : erasure(type.asTypeVariable().bounds().get(0));
            default -> Object.class.getName();
        };
    }

    /**
     * One {@code @Locked} use as the model shows it, to be checked with the classes loaded: when
     * the application is built, and again at startup with the run-time configuration.
     *
     * @param beanClass      the bean class
     * @param declaringClass the class that declares the method: the bean class or a superclass
     * @param method         the method's name
     * @param parameterTypes the erasures of its parameter types, as {@link Class#getTypeName()} names them
     * @param locked         the binding that applies, possibly added by an annotation transformation
     */
    record Declared(ClassInfo beanClass, ClassInfo declaringClass, String method, List<String> parameterTypes,
                    AnnotationInfo locked) {

        /**
         * @param load loads a class by name where the application's classes are
         * @return the use with its classes, its method and its binding's values
         */
        LockedUse load(Function<String, Class<?>> load) {
            return new LockedUse(load.apply(beanClass.name()),
                    LockedUses.method(load.apply(declaringClass.name()), method, parameterTypes),
                    LockedValues.of(locked));
        }
    }
}
