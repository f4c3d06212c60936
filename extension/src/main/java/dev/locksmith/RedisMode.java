package dev.locksmith;

/**
 * How Locksmith reaches Redis, chosen with {@link Locksmith.Builder#mode(RedisMode)} or the
 * MicroProfile Config key {@code locksmith.redis.mode}.
 */
public enum RedisMode {
    /** One master ({@code redis://} or {@code rediss://}), optionally with replicas acknowledging by {@code WAIT}. */
    STANDALONE,
    /** A master found through Sentinel ({@code redis-sentinel://}). */
    SENTINEL,
    /** Redis Cluster; the URI is a comma list of seed nodes. */
    CLUSTER,
    /** The RedLock algorithm over independent masters; the URI is a comma list of three or more, an odd number. */
    REDLOCK
}
