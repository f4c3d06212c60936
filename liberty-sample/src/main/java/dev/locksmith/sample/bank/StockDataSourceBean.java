package dev.locksmith.sample.bank;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Named;
import javax.sql.DataSource;

/**
 * The sample's data source, {@code jdbc/stock}, also as a CDI bean of that name, for
 * {@code locksmith.fencing.data-source=jdbc/stock}: Locksmith looks the name up in JNDI first, and
 * takes the {@code DataSource} bean {@code @Named} so where JNDI has nothing under it (WildFly binds
 * the server's data source at {@code java:/jdbc/stock}, and resolves {@code jdbc/stock} only for
 * the application's own references, like this one).
 */
@ApplicationScoped
public class StockDataSourceBean {
    @Resource(lookup = "jdbc/stock")
    DataSource stock;

    // A producer method, not a @Produces @Resource field: CDI forbids a name on a resource producer field.
    @Produces
    @Named("jdbc/stock")
    DataSource stock() {
        return stock;
    }
}
