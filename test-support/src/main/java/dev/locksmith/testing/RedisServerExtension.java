package dev.locksmith.testing;

import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real Redis server per test class, emptied after each test and stopped after the class.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisServerExtension redis = new RedisServerExtension();
 * }</pre>
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {
    private RedisNode node;

    @Override
    public void beforeAll(ExtensionContext context) {
        node = RedisServers.standalone();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (node != null) {
            node.command("FLUSHALL");
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (node != null) {
            node.close();
            node = null;
        }
    }

    /**
     * @return the running server
     */
    public RedisNode node() {
        return Objects.requireNonNull(node, "the Redis server starts before the test class");
    }

    /**
     * @return {@code redis://127.0.0.1:port}
     */
    public String uri() {
        return node().uri();
    }

    /**
     * The keys Locksmith must not leave behind: everything but fencing counters (which must
     * outlive locks to keep tokens increasing), jobs' records of their last and recent runs (kept
     * as long, for {@code describe} and {@code describeJob}) and release latches that expire within the
     * command timeout (they make a retried unlock harmless), and the descriptions managers keep of
     * themselves while they run.
     *
     * @param commandTimeoutMillis the managers' command timeout, the latches' lifetime
     * @return the keys left that should not be there
     */
    public List<String> lockStateLeftBehind(long commandTimeoutMillis) {
        return keys("locksmith:*").stream()
                .filter(key -> !key.endsWith(":fence") && !key.endsWith(":last-run") && !key.endsWith(":runs"))
                // a manager's description of itself: there while it runs, gone three leases after it dies
                .filter(key -> !key.startsWith("locksmith:manager:"))
                .filter(key -> !(key.contains(":unlock:") && expiresWithin(key, commandTimeoutMillis)))
                .toList();
    }

    private boolean expiresWithin(String key, long millis) {
        long ttl = Long.parseLong(node().command("PTTL", key));
        return ttl == -2 || (ttl >= 0 && ttl <= millis); // -2: it expired since KEYS listed it
    }

    /**
     * @return how many clients listen on the pub/sub channel now ({@code PUBSUB NUMSUB})
     */
    public long listeners(String channel) {
        List<?> reply = (List<?>) RespClient.call(node().port(), "PUBSUB", "NUMSUB", channel);
        return Long.parseLong(reply.get(1).toString());
    }

    /**
     * @param pattern a KEYS pattern
     * @return the keys that match now
     */
    @SuppressWarnings("unchecked")
    public List<String> keys(String pattern) {
        return (List<String>) RespClient.call(node().port(), "KEYS", pattern);
    }
}
