package dev.locksmith.it;

import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The one PostgreSQL every test class of this JVM makes its databases in. By default an
 * {@link EmbeddedPostgresServer}, started when the first test class asks and stopped when JUnit
 * closes its root context after the last test, also when tests failed. An existing server is used
 * only when the user names it:
 *
 * <pre>
 * -Dit.postgres.url=jdbc:postgresql://db.example:5432/postgres -Dit.postgres.user=ci -Dit.postgres.password=secret
 * </pre>
 *
 * The user must be allowed to create databases; {@code it.postgres.user} defaults to
 * {@code postgres} and the password to none.
 */
final class SuitePostgres {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SuitePostgres.class);

    private SuitePostgres() {
    }

    /**
     * @param context any context of the running tests
     * @return the server the user named, else the suite's own, started now if need be
     * @throws IllegalStateException if the suite's own server could not start
     */
    static PostgresServer in(ExtensionContext context) {
        String url = System.getProperty("it.postgres.url", "");
        if (!url.isBlank()) {
            return PostgresServer.fromJdbcUrl(url.trim(), System.getProperty("it.postgres.user", "postgres"),
                    System.getProperty("it.postgres.password", ""));
        }
        // The root context's store outlives every test class, and JUnit closes what it holds at the end.
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(EmbeddedPostgresServer.class, key -> startEmbedded(), EmbeddedPostgresServer.class)
                .server();
    }

    private static EmbeddedPostgresServer startEmbedded() {
        long start = System.nanoTime();
        Path dir = Path.of(System.getProperty("it.postgres.dir", "target/it-postgres"));
        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start(dir);
        System.out.printf("Started %s in %d ms%n", postgres, (System.nanoTime() - start) / 1_000_000);
        return postgres;
    }
}
