package dev.locksmith.testing;

/**
 * One running Redis server that a test started and must stop.
 */
public interface RedisNode extends AutoCloseable {

    /**
     * @return {@code redis://127.0.0.1:port}
     */
    String uri();

    /**
     * @return the loopback port it listens on
     */
    int port();

    /**
     * Sends a command and returns the raw first reply line, for fixture housekeeping
     * (FLUSHALL, KEYS, CONFIG); tests of the library use the library.
     */
    String command(String... words);

    /**
     * Ends the server at once, as a crash would (SIGKILL); nothing is saved.
     */
    void kill();

    /**
     * Stops the server and frees its port; idempotent.
     */
    @Override
    void close();
}
