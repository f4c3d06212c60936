package dev.locksmith.benchmarks;

import dev.locksmith.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.Extension;
import java.util.List;
import java.util.ServiceLoader;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Locksmith as a CDI application uses it: every cycle calls a {@link Locked} business method of an
 * application-scoped bean in a Weld SE container, through Weld's proxy and Locksmith's
 * interceptor. Beside {@link LocksmithClient}'s plain {@code lock()}/{@code unlock()} on the same
 * Redis, it shows what the interceptor itself costs. Settings come from system properties, as on
 * a Jakarta EE server without MicroProfile Config.
 */
final class LockedBeanClient implements LockClient {
    private final WeldContainer container;
    private final LockedCycles cycles;

    LockedBeanClient(Scenario.Servers servers, List<String> redisUris) {
        if (servers != Scenario.Servers.ONE) {
            throw new UnsupportedOperationException("The @Locked benchmark runs on one server, not " + servers);
        }
        this.container = withLocksmith("locked-bean-benchmark", redisUris).addBeanClasses(LockedCycles.class).initialize();
        this.cycles = container.select(LockedCycles.class).get();
    }

    /**
     * @param name      the container's name
     * @param redisUris the servers, set as {@code locksmith.redis.uri}
     * @return a Weld SE container without discovery, with Locksmith's CDI extension as a server
     *         adds it; add the application's beans
     */
    static Weld withLocksmith(String name, List<String> redisUris) {
        System.setProperty("locksmith.redis.uri", String.join(",", redisUris));
        Weld weld = new Weld(name).disableDiscovery();
        // Without discovery Weld skips META-INF/services; a server reads Locksmith's extension from there.
        ServiceLoader.load(Extension.class).stream()
                .filter(extension -> extension.type().getName().startsWith("dev.locksmith."))
                .forEach(extension -> weld.addExtension(extension.get()));
        return weld;
    }

    @Override
    public CycleLock lockFor(Scenario.Kind kind, String name) {
        if (kind != Scenario.Kind.REENTRANT) {
            throw new UnsupportedOperationException("The @Locked benchmark takes the reentrant lock only, not " + kind);
        }
        return inside -> cycles.holding(name, inside);
    }

    @Override
    public void close() {
        container.close();
    }

    /**
     * The application's bean: its method runs the cycle's critical section under the lock its
     * first argument names.
     */
    @ApplicationScoped
    public static class LockedCycles {
        /**
         * @param name   the lock's name
         * @param inside the critical section
         * @return what the critical section returned
         */
        @Locked("{0}")
        public int holding(String name, CycleLock.Inside inside) {
            return inside.run(true);
        }
    }
}
