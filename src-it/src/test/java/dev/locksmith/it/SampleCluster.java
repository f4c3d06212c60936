package dev.locksmith.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.LocalRedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Everything one test class runs against, started before its first test and cleaned up after
 * its last, also when a test fails: one {@code redis-server} on a free loopback port, optionally
 * a PostgreSQL database of its own in the {@link SuitePostgres} (with the suite's
 * {@link DatabaseGates}), and servers of one runtime running the sample. When a test fails, the
 * logs of every server are printed.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final SampleCluster cluster = SampleCluster.sharingPostgres(LibertyRuntime.LEAN, 2);
 * }</pre>
 */
final class SampleCluster implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback, TestWatcher {
    /** Short, so that a dead holder's lock expires within a test; renewed every third of it. */
    static final Duration LEASE = Duration.ofSeconds(3);
    /** Long, so that no reservation of the hammer gives up while others hold the lock. */
    static final Duration WAIT = Duration.ofSeconds(60);
    /** How late the second server's timers fire, as if its clock ran behind: the sample's scheduled job must still run once per slot. */
    static final Duration TIMER_SKEW = Duration.ofMillis(300);

    private final SampleRuntime runtime;
    private final int serverCount;
    private final boolean postgres;
    private boolean lockingEnabled = true;
    private final String keyPrefix = "it-" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final List<SampleServer> servers = new ArrayList<>();
    private LocalRedisServer redis;
    private SampleDatabase database;
    private LockManager locks;

    private SampleCluster(SampleRuntime runtime, int serverCount, boolean postgres) {
        this.runtime = runtime;
        this.serverCount = serverCount;
        this.postgres = postgres;
    }

    /**
     * @return servers that share one PostgreSQL database and one Redis
     */
    static SampleCluster sharingPostgres(SampleRuntime runtime, int servers) {
        return new SampleCluster(runtime, servers, true);
    }

    /**
     * @return one Liberty server as a newcomer runs it: the sample's features, the embedded database
     */
    static SampleCluster singleServerWithDefaults() {
        return new SampleCluster(LibertyRuntime.SAMPLE, 1, false);
    }

    /**
     * @param enabled the servers' {@code sample.locking.enabled}
     * @return this
     */
    SampleCluster lockingEnabled(boolean enabled) {
        this.lockingEnabled = enabled;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        Path workDir = Files.createDirectories(Path.of(System.getProperty("it.work.dir", "target/it-servers"))
                .resolve(context.getRequiredTestClass().getSimpleName() + "-" + System.currentTimeMillis()));
        try {
            redis = LocalRedisServer.start();
            if (postgres) {
                database = SampleDatabase.create(SuitePostgres.in(context));
                DatabaseGates.install(database);
            }
            // Both servers start at once: on two cores that is slower per server but faster in all.
            List<CompletableFuture<SampleServer>> starting = new ArrayList<>();
            ExecutorService starters = Executors.newFixedThreadPool(serverCount);
            for (int i = 1; i <= serverCount; i++) {
                String name = "s" + i;
                starting.add(CompletableFuture.supplyAsync(() -> runtime.start(name, workDir, environment(name)),
                        starters));
            }
            starters.shutdown();
            List<RuntimeException> failures = new ArrayList<>();
            for (CompletableFuture<SampleServer> start : starting) {
                try {
                    SampleServer server = start.join();
                    servers.add(server);
                    new SampleClient(server).awaitAnswering(Duration.ofMinutes(1));
                } catch (CompletionException e) {
                    failures.add(e.getCause() instanceof RuntimeException r ? r : e);
                }
            }
            if (!failures.isEmpty()) {
                failures.subList(1, failures.size()).forEach(failures.get(0)::addSuppressed);
                throw failures.get(0);
            }
            locks = Locksmith.builder().redisUri(redis.uri()).keyPrefix(keyPrefix).leaseTime(LEASE).build();
        } catch (RuntimeException e) {
            cleanUp();
            throw e;
        }
    }

    /**
     * @param server a server's name, such as {@code s1}
     * @return the configuration, as environment variables, that a server of this cluster starts with
     */
    Map<String, String> environment(String server) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("LOCKSMITH_REDIS_URI", redis.uri());
        env.put("LOCKSMITH_KEY_PREFIX", keyPrefix);
        env.put("LOCKSMITH_LEASE_TIME", LEASE.toSeconds() + "s");
        env.put("LOCKSMITH_WAIT_TIME", WAIT.toSeconds() + "s");
        env.put("SAMPLE_MANAGER_WAIT_TIME", WAIT.toString());
        env.put("SAMPLE_LOCKING_ENABLED", Boolean.toString(lockingEnabled));
        runtime.locksmithThreadFactory().ifPresent(factory -> env.put("LOCKSMITH_THREAD_FACTORY", factory));
        if (database != null) {
            env.put("SAMPLE_DB", "postgresql");
            PostgresServer postgres = database.server();
            env.put("SAMPLE_DB_HOST", postgres.host());
            env.put("SAMPLE_DB_PORT", Integer.toString(postgres.port()));
            env.put("SAMPLE_DB_NAME", database.name());
            env.put("SAMPLE_DB_USER", postgres.user());
            env.put("SAMPLE_DB_PASSWORD", postgres.password());
            // The sample's scheduled job writes each run to the shared database: on for every pair.
            env.put("SAMPLE_JOBS_ENABLED", "true");
            env.put("SAMPLE_JOBS_SKEW", Long.toString(timerSkew(server).toMillis()));
        }
        return env;
    }

    /**
     * @param server a server's name, such as {@code s1}
     * @return how late that server's job timers fire on purpose ({@code sample.jobs.skew}): the second's
     */
    static Duration timerSkew(String server) {
        return server.equals("s2") ? TIMER_SKEW : Duration.ZERO;
    }

    /**
     * Brings back a server an earlier test killed, so that tests do not depend on their order.
     */
    @Override
    public void beforeEach(ExtensionContext context) {
        servers.stream().filter(server -> !server.isAlive()).forEach(server -> {
            server.restart();
            new SampleClient(server).awaitAnswering(Duration.ofMinutes(1));
        });
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        System.err.println("==== " + context.getDisplayName() + " failed; the servers' logs follow");
        servers.forEach(server -> System.err.println(server.describe()));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        cleanUp();
    }

    private void cleanUp() {
        List<Runnable> steps = new ArrayList<>();
        if (locks != null) {
            steps.add(locks::close);
        }
        servers.forEach(server -> steps.add(server::stop));
        if (database != null) {
            steps.add(database::close);
        }
        if (redis != null) {
            steps.add(redis::close);
        }
        // Every step runs even when an earlier one fails; the first failure is reported.
        RuntimeException first = null;
        for (Runnable step : steps) {
            try {
                step.run();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        servers.clear();
        locks = null;
        database = null;
        redis = null;
        if (first != null) {
            throw first;
        }
    }

    SampleClient server(int index) {
        return new SampleClient(servers.get(index));
    }

    SampleServer process(int index) {
        return servers.get(index);
    }

    List<SampleClient> clients() {
        return servers.stream().map(SampleClient::new).toList();
    }

    LocalRedisServer redis() {
        return redis;
    }

    /**
     * @return the key prefix both servers and {@link #locks()} share
     */
    String keyPrefix() {
        return keyPrefix;
    }

    Optional<SampleDatabase> database() {
        return Optional.ofNullable(database);
    }

    SampleDatabase postgres() {
        return database().orElseThrow(() -> new IllegalStateException("this cluster runs on the embedded database"));
    }

    /**
     * @return the tests' own view of the servers' locks: same Redis, same key prefix
     */
    LockManager locks() {
        return locks;
    }

    SampleRuntime runtime() {
        return runtime;
    }

    /**
     * @throws AssertionError if a server logged that a session bean threw a system exception,
     *         which a Locksmith exception must never be
     */
    void noSystemExceptionLogged() {
        for (SampleServer server : servers) {
            assertThat(server.log()).as("%s's log", server.name())
                    .noneMatch(line -> line.contains(runtime.systemExceptionMessage()));
        }
    }

    /**
     * @return a SKU no other test uses
     */
    static String freshSku(String what) {
        return what + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
