package dev.locksmith.internal.cdi;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The {@code .customer.id} part of a lock name placeholder: a chain of getters or record
 * components, resolved against the declared types once, when the container starts.
 */
final class PropertyPath {
    private final List<Method> accessors;

    private PropertyPath(List<Method> accessors) {
        this.accessors = List.copyOf(accessors);
    }

    /**
     * @param start      the declared type of the parameter the path starts from
     * @param properties the property names, in order; may be empty
     * @return the resolved path
     * @throws IllegalArgumentException naming the type that lacks a property and what it has
     */
    static PropertyPath resolve(Class<?> start, List<String> properties) {
        List<Method> accessors = new ArrayList<>();
        Class<?> type = start;
        for (String property : properties) {
            Method accessor = accessor(type, property);
            if (accessor == null) {
                throw new IllegalArgumentException(type.getSimpleName() + " has no property '" + property
                        + "' (no record component, get" + capitalized(property) + "() or is" + capitalized(property)
                        + "()). Properties: " + propertiesOf(type));
            }
            // Getters of non-public classes (records nested in the application) are called by reflection.
            accessor.trySetAccessible();
            accessors.add(accessor);
            type = accessor.getReturnType();
        }
        return new PropertyPath(accessors);
    }

    /**
     * @param value  the parameter's value
     * @param onNull what to say when a value on the way is null
     * @return the value at the end of the path
     * @throws IllegalArgumentException when the parameter or a property on the way is null
     */
    Object valueOf(Object value, String onNull) {
        Object current = value;
        for (Method accessor : accessors) {
            if (current == null) {
                break;
            }
            try {
                current = accessor.invoke(current);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(onNull + ": cannot call " + accessor + ": " + e.getMessage(), e);
            } catch (InvocationTargetException e) {
                throw new IllegalArgumentException(onNull + ": " + accessor.getName() + "() failed: " + e.getCause(),
                        e.getCause());
            }
        }
        if (current == null) {
            throw new IllegalArgumentException(onNull + " is null; a lock name needs a value there");
        }
        return current;
    }

    private static Method accessor(Class<?> type, String property) {
        if (type.isRecord()) {
            for (RecordComponent component : type.getRecordComponents()) {
                if (component.getName().equals(property)) {
                    return component.getAccessor();
                }
            }
        }
        for (String name : List.of("get" + capitalized(property), "is" + capitalized(property))) {
            try {
                Method getter = type.getMethod(name);
                if (!Modifier.isStatic(getter.getModifiers()) && getter.getReturnType() != void.class
                        && (name.startsWith("get") || getter.getReturnType() == boolean.class)) {
                    return getter;
                }
            } catch (NoSuchMethodException e) {
                // try the next form
            }
        }
        return null;
    }

    private static TreeSet<String> propertiesOf(Class<?> type) {
        TreeSet<String> names = new TreeSet<>();
        if (type.isRecord()) {
            Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).forEach(names::add);
        }
        for (Method method : type.getMethods()) {
            String name = method.getName();
            if (method.getParameterCount() == 0 && !Modifier.isStatic(method.getModifiers())
                    && method.getDeclaringClass() != Object.class) {
                if (name.startsWith("get") && name.length() > 3) {
                    names.add(decapitalized(name.substring(3)));
                } else if (name.startsWith("is") && name.length() > 2 && method.getReturnType() == boolean.class) {
                    names.add(decapitalized(name.substring(2)));
                }
            }
        }
        return names;
    }

    private static String capitalized(String name) {
        return name.isEmpty() ? name : name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
    }

    private static String decapitalized(String name) {
        return name.substring(0, 1).toLowerCase(Locale.ROOT) + name.substring(1);
    }
}
