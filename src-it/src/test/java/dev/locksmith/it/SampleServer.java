package dev.locksmith.it;

import java.net.URI;
import java.util.List;

/**
 * One application server running the sample WAR as a real process on loopback, whatever the
 * runtime: Open Liberty, Payara Micro, WildFly.
 */
interface SampleServer extends AutoCloseable {

    /**
     * @return the name given at start, also the sample's {@code sample.instance}
     */
    String name();

    /**
     * @return {@code http://127.0.0.1:port}, where the sample answers at {@code /api}
     */
    URI baseUri();

    /**
     * @return where the server answers readiness ({@link #readinessPath()}): {@link #baseUri()}, or on WildFly its
     *         management interface
     */
    default URI healthUri() {
        return baseUri();
    }

    /**
     * @return where MicroProfile Health answers readiness
     */
    default String readinessPath() {
        return "/health/ready";
    }

    /**
     * @return the process id of the server's JVM
     */
    long pid();

    /**
     * @return whether the server's JVM runs
     */
    boolean isAlive();

    /**
     * Ends the server as a crash would: SIGKILL to its JVM, nothing committed, no shutdown.
     */
    void kill();

    /**
     * Stops the server the orderly way, then kills it if it does not end within a minute.
     */
    void stop();

    /**
     * SIGSTOP to the server's JVM: every thread of it stands still, as in a long garbage
     * collection or a frozen VM, its sockets open, until {@link Frozen#close()} sends SIGCONT.
     *
     * @return the pause, to end in a {@code finally} (try-with-resources) so a failed test never
     *         leaves the server stopped
     */
    Frozen freeze();

    /**
     * Starts it again, possibly on another port, after {@link #kill()} or {@link #stop()}.
     */
    void restart();

    /**
     * @return the lines of the log that application log records go to (Liberty's messages.log,
     *         the console elsewhere), since the server last started
     */
    List<String> log();

    /**
     * @return the last lines of its logs and where the full logs are, for a failed test's report
     */
    String describe();

    @Override
    default void close() {
        stop();
    }

    /**
     * A server stopped by {@link #freeze()}.
     */
    interface Frozen extends AutoCloseable {
        /**
         * SIGCONT: the server goes on where it stood.
         */
        @Override
        void close();
    }
}
