/**
 * Everything that talks to Redis through Lettuce: connections for each {@link dev.locksmith.RedisMode},
 * Lua scripts run by SHA (reloaded when the server forgot them), and the pub/sub channels that
 * wake waiters. Knows Lettuce; knows nothing about locks.
 */
package dev.locksmith.internal.redis;
