package dev.locksmith.internal.cdi;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.time.Instant;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;

/**
 * A {@code @Locked} name template bound to one method: literal text with placeholders that take
 * the method's arguments, checked against the method's parameters when the container starts.
 *
 * <ul>
 *   <li>{@code {sku}}: the parameter named {@code sku} (the class must be compiled with {@code -parameters});</li>
 *   <li>{@code {0}}: the first parameter;</li>
 *   <li>{@code {order.customer.id}} or {@code {0.customer.id}}: through getters or record components;</li>
 *   <li>{@code {timer.nextTimeout}}: a {@link Date} or a point in time ({@link TemporalAccessor}) is
 *       written as an ISO-8601 instant in UTC, such as {@code 2026-03-01T10:00:02Z};</li>
 *   <li>{@code {slot}}: the scheduled time of the current firing of a scheduled method, written the
 *       same way ({@link FiringSlot}); a parameter named {@code slot} wins over it.</li>
 * </ul>
 * An empty template names the lock after the method: {@code fully.qualified.Class#method}.
 */
final class LockNameTemplate {
    private static final String SLOT = "slot";

    private final String text;
    private final List<Part> parts;

    private LockNameTemplate(String text, List<Part> parts) {
        this.text = text;
        this.parts = List.copyOf(parts);
    }

    /**
     * @param template  the annotation's value
     * @param beanClass the bean class, which names the lock of an empty template
     * @param method    the method whose parameters the placeholders name
     * @return the bound template
     * @throws IllegalArgumentException saying which placeholder is wrong and how to fix it
     */
    static LockNameTemplate bind(String template, Class<?> beanClass, Method method) {
        if (template.isEmpty()) {
            return new LockNameTemplate(template, List.of(new Literal(beanClass.getName() + "#" + method.getName())));
        }
        List<Part> parts = new ArrayList<>();
        int at = 0;
        while (at < template.length()) {
            int open = template.indexOf('{', at);
            int close = template.indexOf('}', at);
            if (close >= 0 && (open < 0 || close < open)) {
                throw new IllegalArgumentException("'}' at position " + close + " closes no placeholder."
                        + " Placeholders look like {sku}, {0} or {order.id}");
            }
            if (open < 0) {
                parts.add(new Literal(template.substring(at)));
                break;
            }
            if (open > at) {
                parts.add(new Literal(template.substring(at, open)));
            }
            int nextOpen = template.indexOf('{', open + 1);
            if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
                throw new IllegalArgumentException("the placeholder at position " + open + " is not closed."
                        + " Placeholders look like {sku}, {0} or {order.id}");
            }
            parts.add(placeholder(template.substring(open + 1, close), method));
            at = close + 1;
        }
        return new LockNameTemplate(template, parts);
    }

    /**
     * @param arguments the call's arguments
     * @param where     names the use for messages, such as {@code @Locked("x") on Shop#buy(String id)}
     * @return the lock name for this call
     * @throws IllegalArgumentException when a value the name needs is null
     */
    String render(Object[] arguments, String where) {
        return render(arguments, null, where);
    }

    /**
     * @param arguments the call's arguments
     * @param slot      the scheduled time of the current firing, or null when the template has no {@code {slot}}
     * @param where     names the use for messages
     * @return the lock name for this call
     * @throws IllegalArgumentException when a value the name needs is null
     */
    String render(Object[] arguments, Instant slot, String where) {
        StringBuilder name = new StringBuilder();
        for (Part part : parts) {
            if (part instanceof Literal literal) {
                name.append(literal.text());
            } else if (part instanceof Slot) {
                if (slot == null) {
                    throw new IllegalArgumentException(where + ": {slot} has no firing time for this call");
                }
                name.append(slot);
            } else if (part instanceof Placeholder placeholder) {
                name.append(text(placeholder.path().valueOf(arguments[placeholder.index()],
                        where + ": {" + placeholder.expression() + "}")));
            }
        }
        return name.toString();
    }

    /**
     * A point in time as an ISO-8601 instant in UTC, so that every server names the same slot
     * alike whatever its time zone ({@code {timer.nextTimeout}} is a {@link Date}); anything else
     * by its {@code toString()}.
     */
    private static String text(Object value) {
        if (value instanceof Date date) {
            return date.toInstant().toString();
        }
        if (value instanceof TemporalAccessor time && time.isSupported(ChronoField.INSTANT_SECONDS)) {
            return Instant.from(time).toString();
        }
        return value.toString();
    }

    /**
     * @return the template as written
     */
    String text() {
        return text;
    }

    /**
     * @return whether the template has {@code {slot}}
     */
    boolean hasSlot() {
        return parts.stream().anyMatch(Slot.class::isInstance);
    }

    /**
     * @param method the method the template is bound to
     * @return whether each firing of a scheduled method gets a name of its own: the template has
     *         {@code {slot}}, or a placeholder on a {@code jakarta.ejb.Timer} or Quarkus
     *         {@code ScheduledExecution} parameter
     */
    boolean namesEachFiring(Method method) {
        for (Part part : parts) {
            if (part instanceof Slot) {
                return true;
            }
            if (part instanceof Placeholder placeholder) {
                String type = method.getParameterTypes()[placeholder.index()].getName();
                if (type.equals(FiringSlot.EJB_TIMER) || type.equals(FiringSlot.QUARKUS_EXECUTION)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Part placeholder(String expression, Method method) {
        if (expression.isBlank()) {
            throw new IllegalArgumentException("'{}' names nothing. Use {sku}, {0} or {order.id}");
        }
        List<String> segments = Arrays.asList(expression.split("\\.", -1));
        if (segments.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("'{" + expression + "}' has an empty property name. Use {order.id}");
        }
        String head = segments.get(0);
        if (expression.equals(SLOT) && Arrays.stream(method.getParameters())
                .noneMatch(parameter -> parameter.isNamePresent() && parameter.getName().equals(SLOT))) {
            return new Slot();
        }
        int index = head.chars().allMatch(Character::isDigit) ? byPosition(head, method) : byName(head, method);
        try {
            PropertyPath path = PropertyPath.resolve(method.getParameterTypes()[index], segments.subList(1, segments.size()));
            return new Placeholder(expression, index, path);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'{" + expression + "}': " + e.getMessage(), e);
        }
    }

    private static int byPosition(String head, Method method) {
        int index = Integer.parseInt(head);
        if (index >= method.getParameterCount()) {
            throw new IllegalArgumentException("no parameter {" + index + "}: the method has "
                    + method.getParameterCount() + " parameter(s), counted from {0}");
        }
        return index;
    }

    private static int byName(String name, Method method) {
        Parameter[] parameters = method.getParameters();
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i].isNamePresent() && parameters[i].getName().equals(name)) {
                return i;
            }
        }
        if (parameters.length > 0 && !parameters[0].isNamePresent()) {
            throw new IllegalArgumentException("no parameter named '" + name + "': the class file has no parameter"
                    + " names. Compile with -parameters, or use {0}.");
        }
        throw new IllegalArgumentException("no parameter named '" + name + "'. Parameters: "
                + Arrays.stream(parameters).map(Parameter::getName).toList() + ". Compile with -parameters, or use {0}.");
    }

    private sealed interface Part permits Literal, Placeholder, Slot {
    }

    private record Slot() implements Part {
    }

    private record Literal(String text) implements Part {
    }

    private record Placeholder(String expression, int index, PropertyPath path) implements Part {
    }
}
