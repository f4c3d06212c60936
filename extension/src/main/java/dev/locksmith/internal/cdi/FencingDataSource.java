package dev.locksmith.internal.cdi;

import dev.locksmith.LockException;
import dev.locksmith.internal.classpath.Jndi;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.literal.NamedLiteral;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Finds the data source of fenced writes and makes sure its fence table is there: at the JNDI
 * name {@code locksmith.fencing.data-source}, else as a {@code DataSource} CDI bean (the only one
 * for the default name, the one {@code @Named} so otherwise), for CDI-only runtimes.
 */
final class FencingDataSource {
    private FencingDataSource() {
    }

    /**
     * @param settings the fencing settings
     * @param beans    the application's beans
     * @param uses     the fenced uses, for the message
     * @return the data source
     * @throws IllegalArgumentException naming the key, its value, what was found there and the fix
     */
    static DataSource find(FencingSettings settings, Instance<Object> beans, String uses) {
        String name = settings.dataSource();
        Object bound = Jndi.lookup(name);
        if (bound instanceof DataSource dataSource) {
            return dataSource;
        }
        Instance<DataSource> candidates = settings.defaultDataSource() ? beans.select(DataSource.class)
                : beans.select(DataSource.class, NamedLiteral.of(name));
        if (candidates.isResolvable()) {
            return candidates.get();
        }
        String found = bound != null ? "JNDI has a " + bound.getClass().getName() + " there, not a javax.sql.DataSource"
                : "nothing is bound there in JNDI";
        String beansFound = candidates.isAmbiguous() ? "several DataSource CDI beans match, so none is chosen"
                : settings.defaultDataSource() ? "there is no DataSource CDI bean either"
                : "there is no DataSource CDI bean @Named(\"" + name + "\") either";
        throw new IllegalArgumentException(ConfigKey.FENCING_DATA_SOURCE.key() + " = '" + name + "': " + found + ", and "
                + beansFound + ". Fenced writes (" + uses + ") are checked in that database. Set "
                + ConfigKey.FENCING_DATA_SOURCE.key() + " to the JNDI name of the application's data source (such as"
                + " java:app/jdbc/orders), define a data source at " + name + ", or produce one DataSource CDI bean"
                + (settings.defaultDataSource() ? "" : " @Named(\"" + name + "\")"));
    }

    /**
     * Creates the fence table when it is missing and creation is on; otherwise checks that it is there.
     *
     * @param settings   the fencing settings
     * @param dataSource the data source
     * @param uses       the fenced uses, for the message
     * @throws IllegalArgumentException naming the table, the key and the fix
     */
    static void prepareTable(FencingSettings settings, DataSource dataSource, String uses) {
        var fence = settings.fence();
        try (Connection connection = dataSource.getConnection()) {
            if (settings.createTable()) {
                fence.createTableIfAbsent(connection);
            } else if (!fence.tableExists(connection)) {
                throw new IllegalArgumentException(ConfigKey.FENCING_CREATE_TABLE.key() + " = 'false', and the fence"
                        + " table " + fence.tableName() + " (" + ConfigKey.FENCING_TABLE.key() + ") does not exist in "
                        + settings.dataSource() + ", or its user may not read it. Fenced writes (" + uses + ") need it:"
                        + " create it once with " + fence.createTableStatement() + ", or set "
                        + ConfigKey.FENCING_CREATE_TABLE.key() + " = true to have it created at startup");
            }
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        } catch (LockException e) {
            throw new IllegalArgumentException(ConfigKey.FENCING_TABLE.key() + " = '" + fence.tableName() + "' in "
                    + settings.dataSource() + ": " + e.getMessage() + "; or set the table's name in "
                    + ConfigKey.FENCING_TABLE.key() + " (fenced uses: " + uses + ")", e);
        } catch (SQLException e) {
            throw new IllegalArgumentException(ConfigKey.FENCING_DATA_SOURCE.key() + " = '" + settings.dataSource()
                    + "': could not connect to check the fence table " + fence.tableName() + ": " + e
                    + ". Fenced writes (" + uses + ") are checked in that database", e);
        }
    }
}
