package dev.locksmith.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

/**
 * How {@code -Dit.postgres.url} names the server the suite uses instead of its own.
 */
class PostgresServerTest {

    @Test
    void namedUrlGivesHostPortAndAdminDatabase() {
        PostgresServer server = PostgresServer.fromJdbcUrl("jdbc:postgresql://db.example:6543/admin", "ci", "secret");

        assertThat(server).isEqualTo(new PostgresServer("db.example", 6543, "ci", "secret", "admin"));
    }

    @Test
    void portAndDatabaseDefaultToPostgresOwn() {
        PostgresServer server = PostgresServer.fromJdbcUrl("jdbc:postgresql://10.0.0.7?sslmode=require", "postgres", "");

        assertThat(server.port()).isEqualTo(5432);
        assertThat(server.adminDatabase()).isEqualTo("postgres");
    }

    @Test
    void anythingButAPostgresJdbcUrlIsRefusedWithTheExpectedForm() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> PostgresServer.fromJdbcUrl("postgres://db.example:5432/postgres", "postgres", ""))
                .withMessageContaining("jdbc:postgresql://host:port/database");
    }
}
