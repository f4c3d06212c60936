package dev.locksmith.sample.concurrency;

import jakarta.enterprise.concurrent.ManagedExecutorDefinition;
import jakarta.enterprise.concurrent.ManagedThreadFactoryDefinition;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The sample's managed executor of virtual threads ({@code @ManagedExecutorDefinition(virtual = true)},
 * Jakarta Concurrency 3.1), once the server has shown that it honours {@code virtual = true}: one task
 * is run on it, and it must find itself on a virtual thread. A server that only has the 3.1 API over a
 * 3.0 implementation (WildFly Preview 38) defines the executor with platform threads; an EE 10
 * server does not know the member at all. Both get no executor here, and the sample says so.
 *
 * <p>It also defines a {@code ManagedThreadFactory} of virtual threads, {@value #THREAD_FACTORY}, that
 * the sample does not use itself: Locksmith can be given it for its Redis I/O threads
 * ({@code locksmith.thread-factory}), as the suite does on Payara Micro 7.
 */
@ApplicationScoped
@ManagedExecutorDefinition(name = VirtualThreadExecutor.JNDI_NAME, virtual = true)
@ManagedThreadFactoryDefinition(name = VirtualThreadExecutor.THREAD_FACTORY, virtual = true)
public class VirtualThreadExecutor {
    /** The JNDI name of the executor. */
    public static final String JNDI_NAME = "java:app/concurrent/virtualThreads";
    /** The JNDI name of the thread factory of virtual threads. */
    public static final String THREAD_FACTORY = "java:app/concurrent/virtualThreadFactory";
    private static final Logger LOG = Logger.getLogger(VirtualThreadExecutor.class.getName());

    private volatile Optional<ExecutorService> executor;
    private volatile String absence;

    /**
     * @return the executor, when its threads are virtual
     */
    public Optional<ExecutorService> get() {
        if (executor == null) {
            executor = probe();
        }
        return executor;
    }

    /**
     * @return why {@link #get()} is empty, for the answer to a client
     */
    public String whyNone() {
        get();
        return absence;
    }

    private Optional<ExecutorService> probe() {
        if (!ConcurrencyLevel.hasVirtualThreadExecutors()) {
            return none("This server has no Jakarta Concurrency 3.1 API (no ManagedExecutorDefinition.virtual)");
        }
        ExecutorService found;
        try {
            found = (ExecutorService) new InitialContext().lookup(JNDI_NAME);
        } catch (NamingException e) {
            return none("No managed executor at " + JNDI_NAME + " (" + e + ")");
        }
        try {
            boolean virtual = found.submit(() -> ThreadKind.isVirtual(Thread.currentThread())).get(1, TimeUnit.MINUTES);
            if (!virtual) {
                return none("The managed executor at " + JNDI_NAME + " runs its tasks on platform threads although it"
                        + " is defined with virtual = true: the server has the Jakarta Concurrency 3.1 API over an"
                        + " implementation without virtual threads");
            }
            return Optional.of(found);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while trying the executor at " + JNDI_NAME, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("The managed executor at " + JNDI_NAME + " did not run a task", e);
        }
    }

    private Optional<ExecutorService> none(String why) {
        absence = why;
        LOG.info(why + ": no reservations on virtual threads, and no Concurrency 3.1 schedule");
        return Optional.empty();
    }
}
