package dev.locksmith.testing;

import io.opentelemetry.api.OpenTelemetry;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.Supplier;

/**
 * An {@link OpenTelemetry} whose instruments throw: what a broken exporter or a half-present
 * telemetry API looks like from a library. Every method that returns an interface (a meter, a
 * builder, a span) returns another such object; a method that records (returns nothing) throws
 * when its instrument's name matches, and does nothing otherwise.
 */
public final class ThrowingTelemetry {
    private ThrowingTelemetry() {
    }

    /**
     * @param instrument the name of the instrument whose recordings throw, or null for every one
     *                   (spans included)
     * @param failure    what they throw
     */
    public static OpenTelemetry create(String instrument, Supplier<? extends Throwable> failure) {
        return proxy(OpenTelemetry.class, null, instrument, failure);
    }

    private static <T> T proxy(Class<T> type, String name, String instrument, Supplier<? extends Throwable> failure) {
        InvocationHandler handler = (self, method, args) -> answer(self, method, args, name, instrument, failure);
        return type.cast(Proxy.newProxyInstance(ThrowingTelemetry.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    private static Object answer(Object self, Method method, Object[] args, String name, String instrument,
                                 Supplier<? extends Throwable> failure) throws Throwable {
        switch (method.getName()) {
            case "toString" -> {
                return "ThrowingTelemetry(" + name + ")";
            }
            case "hashCode" -> {
                return System.identityHashCode(self);
            }
            case "equals" -> {
                return self == args[0];
            }
            default -> {
            }
        }
        Class<?> returned = method.getReturnType();
        if (returned.isInterface()) {
            // The first string argument of a builder names its instrument from then on.
            String named = name == null && args != null && args.length > 0 && args[0] instanceof String text
                    && method.getName().endsWith("Builder") ? text : name;
            return proxy(returned, named, instrument, failure);
        }
        if (returned == void.class && (instrument == null || instrument.equals(name))) {
            throw failure.get();
        }
        if (returned == boolean.class) {
            return false;
        }
        if (returned.isPrimitive() && returned != void.class) {
            return 0;
        }
        return null;
    }
}
