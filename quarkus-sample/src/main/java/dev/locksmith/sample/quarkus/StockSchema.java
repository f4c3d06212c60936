package dev.locksmith.sample.quarkus;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Creates the sample's tables at startup from {@code META-INF/stock-schema.sql}, the script the
 * Liberty sample's persistence unit runs: {@code CREATE ... IF NOT EXISTS}, so any number of
 * instances may start against one database.
 */
@ApplicationScoped
public class StockSchema {
    void create(@Observes StartupEvent started, DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            for (String line : script().split("\n")) {
                if (!line.isBlank()) {
                    statement.execute(line);
                }
            }
        }
    }

    private static String script() {
        try (InputStream in = StockSchema.class.getResourceAsStream("/META-INF/stock-schema.sql")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read META-INF/stock-schema.sql", e);
        }
    }
}
