package dev.locksmith.cdi;

import dev.locksmith.DistributedLock;
import dev.locksmith.Fence;
import dev.locksmith.LockManager;
import dev.locksmith.Locked;
import dev.locksmith.internal.cdi.LocksmithExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * A CDI application as a user writes it, run by {@link OptionalApisTest} in a JVM whose class
 * path lacks one optional API or all of them. It counts under {@code @Locked} from four threads,
 * checks a fencing token on an H2 database with {@link Fence}, and prints
 * {@code OK <count> held-after=<locked> fence=<token>}. It references no optional API and no other test class.
 */
public final class OptionalApisApp {
    static final int CALLS = 200;

    private OptionalApisApp() {
    }

    /**
     * @param args none; Locksmith's settings come as system properties or MicroProfile Config
     * @throws Exception whatever the application threw: the JVM then ends with a stack trace
     */
    public static void main(String[] args) throws Exception {
        // Weld SE without discovery skips META-INF/services; a server reads it and adds the same.
        try (WeldContainer container = new Weld("optional-apis").disableDiscovery()
                .addExtension(new LocksmithExtension()).addBeanClasses(Counter.class).initialize()) {
            Counter counter = container.select(Counter.class).get();
            ExecutorService threads = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> calls = new ArrayList<>();
                for (int i = 0; i < CALLS; i++) {
                    calls.add(threads.submit(counter::increment));
                }
                for (Future<?> call : calls) {
                    call.get();
                }
            } finally {
                threads.shutdown();
            }
            LockManager locks = container.select(LockManager.class).get();
            System.out.println("OK " + counter.value() + " held-after=" + locks.getLock(Counter.LOCK).isLocked()
                    + " fence=" + fencedCheck(locks));
        }
    }

    /**
     * A fence check on JDBC under the lock, which needs neither Jakarta Persistence nor JTA.
     *
     * @return the token the fence table kept
     */
    private static long fencedCheck(LockManager locks) throws SQLException {
        Fence fence = locks.fence(Fence.DEFAULT_TABLE);
        DistributedLock lock = locks.getLock(Counter.LOCK);
        lock.lock();
        try (Connection connection = DriverManager.getConnection("jdbc:h2:mem:optional-apis")) {
            fence.createTableIfAbsent(connection);
            connection.setAutoCommit(false);
            fence.check(connection, lock);
            connection.commit();
            try (Statement statement = connection.createStatement();
                 ResultSet row = statement.executeQuery("SELECT token FROM " + Fence.DEFAULT_TABLE)) {
                row.next();
                return row.getLong(1) == lock.fencingToken() ? row.getLong(1) : -1;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * A bean with a locked business method that fails loudly if it runs without its lock.
     */
    @ApplicationScoped
    public static class Counter {
        static final String LOCK = "optional-apis";

        @Inject
        LockManager locks;

        private int value;

        /**
         * Adds one, under the lock.
         */
        @Locked(LOCK)
        public void increment() {
            if (!locks.getLock(LOCK).isHeldByCurrentThread()) {
                throw new IllegalStateException("@Locked did not take " + LOCK);
            }
            int read = value;
            Thread.onSpinWait();
            value = read + 1;
        }

        int value() {
            return value;
        }
    }
}
