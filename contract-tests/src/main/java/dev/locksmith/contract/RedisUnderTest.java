package dev.locksmith.contract;

import dev.locksmith.Locksmith;
import java.util.List;

/**
 * The Redis a contract runs against: how Locksmith reaches it, and what it holds. Implement it once
 * for your setup (a test server, a staging cluster) and hand it to each contract you extend.
 *
 * <pre>{@code
 * final class StagingRedis implements RedisUnderTest {
 *     public Locksmith.Builder builder() {
 *         return Locksmith.builder().redisUri("redis-sentinel://sentinel-1:26379,sentinel-2:26379#locks")
 *                 .mode(RedisMode.SENTINEL);
 *     }
 *
 *     public List<StoredKey> keys(String prefix) {   // with Lettuce here; any client will do
 *         RedisClient client = RedisClient.create("redis-sentinel://sentinel-1:26379,sentinel-2:26379#locks");
 *         try (StatefulRedisConnection<String, String> connection = client.connect()) {
 *             RedisCommands<String, String> redis = connection.sync();
 *             return redis.keys(prefix + "*").stream().map(key -> new StoredKey(key, redis.pttl(key))).toList();
 *         } finally {
 *             client.shutdown();
 *         }
 *     }
 * }
 * }</pre>
 */
public interface RedisUnderTest {

    /**
     * A builder that reaches this Redis: its URI, mode, credentials, TLS, replica acknowledgements.
     * A contract sets the key prefix (its own per test) and the lease time on it, and builds.
     *
     * @return a new builder each time
     */
    Locksmith.Builder builder();

    /**
     * Every key whose name starts with {@code prefix}, on every master (with replicas, Sentinel or
     * a cluster: all of them; with RedLock: every independent master), each listed once. A
     * contract asks this after each test to prove that nothing it did is left behind. A key seen
     * on a replica that its master no longer has is listed too; the contract waits for
     * replication to catch up. With RedLock, a key that only a minority of the masters has and
     * that expires may be left out: a hold exists while a majority has it, and a master that
     * answered too late keeps its copy until the lease runs out.
     *
     * @param prefix a key prefix of letters, digits, {@code -} and {@code :}, no pattern characters
     * @return the keys now, with their time to live
     */
    List<StoredKey> keys(String prefix);

    /**
     * One key in Redis and how long it has to live.
     *
     * @param name        the key's name
     * @param millisToLive its time to live in milliseconds as {@code PTTL} answers it: -1 for a key
     *                    without expiry, -2 for one that expired since it was listed
     */
    record StoredKey(String name, long millisToLive) {
    }
}
