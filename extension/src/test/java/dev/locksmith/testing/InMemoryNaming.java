package dev.locksmith.testing;

import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.OperationNotSupportedException;
import javax.naming.spi.InitialContextFactory;

/**
 * A JNDI provider for tests, standing in for a server's {@code java:comp} names: a flat map of
 * names to objects that tests bind and unbind, and that counts lookups. The build makes it the
 * JVM's {@code java.naming.factory.initial}.
 */
public final class InMemoryNaming implements InitialContextFactory {
    private static final Map<String, Object> BOUND = new ConcurrentHashMap<>();
    private static final Map<String, AtomicInteger> LOOKUPS = new ConcurrentHashMap<>();

    /**
     * @param name   a JNDI name such as {@code java:comp/DefaultManagedScheduledExecutorService}
     * @param object what a lookup of that name returns
     */
    public static void bind(String name, Object object) {
        BOUND.put(name, object);
    }

    /**
     * Removes every binding and count; call after each test that bound something.
     */
    public static void clear() {
        BOUND.clear();
        LOOKUPS.clear();
    }

    /**
     * @return how often {@code name} was looked up since the last {@link #clear()}
     */
    public static int lookups(String name) {
        AtomicInteger count = LOOKUPS.get(name);
        return count == null ? 0 : count.get();
    }

    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) {
        return (Context) java.lang.reflect.Proxy.newProxyInstance(InMemoryNaming.class.getClassLoader(),
                new Class<?>[] {Context.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "lookup" -> lookup(String.valueOf(args[0]));
                    case "close" -> null;
                    case "getEnvironment" -> new Hashtable<>(environment);
                    case "toString" -> "InMemoryNaming";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new OperationNotSupportedException("InMemoryNaming supports lookup only, not "
                            + method.getName());
                });
    }

    private static Object lookup(String name) throws NameNotFoundException {
        LOOKUPS.computeIfAbsent(name, key -> new AtomicInteger()).incrementAndGet();
        Object bound = BOUND.get(name);
        if (bound == null) {
            throw new NameNotFoundException(name + " is not bound");
        }
        return bound;
    }
}
