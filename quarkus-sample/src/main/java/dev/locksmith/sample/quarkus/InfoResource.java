package dev.locksmith.sample.quarkus;

import dev.locksmith.LockManager;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code GET /api/info} on Quarkus: the same answer as the Liberty sample's, with the data source
 * injected as Quarkus offers it instead of looked up in JNDI.
 */
@Path("/info")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class InfoResource {
    @Inject
    @ConfigProperty(name = "sample.instance", defaultValue = "sample")
    String instance;

    @Inject
    @ConfigProperty(name = "sample.locking.enabled", defaultValue = "true")
    boolean lockingEnabled;

    @Inject
    @ConfigProperty(name = "locksmith.redis.uri", defaultValue = "redis://localhost:6379")
    String redisUri;

    @Inject
    Instance<LockManager> lockManager;

    @Inject
    DataSource dataSource;

    /**
     * @param instance    {@code sample.instance}
     * @param locking     {@code sample.locking.enabled}
     * @param lockManager whether a {@code LockManager} bean exists (Locksmith's CDI extension is active)
     * @param redisUri    {@code locksmith.redis.uri}
     * @param database    product and version of the database
     */
    public record Info(String instance, boolean locking, boolean lockManager, String redisUri, String database) {
    }

    @GET
    public Info info() throws SQLException {
        String database;
        try (Connection connection = dataSource.getConnection()) {
            DatabaseMetaData metaData = connection.getMetaData();
            database = metaData.getDatabaseProductName() + " " + metaData.getDatabaseProductVersion();
        }
        return new Info(instance, lockingEnabled, lockManager.isResolvable(), redisUri, database);
    }
}
