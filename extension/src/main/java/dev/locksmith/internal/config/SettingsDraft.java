package dev.locksmith.internal.config;

import dev.locksmith.RedisMode;
import dev.locksmith.internal.redis.RedisUris;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.List;

/**
 * A manager's shared settings as the caller gave them, not checked yet: the builder makes one
 * from its fields, MicroProfile Config from the values it parsed, and both call {@link #check()},
 * so that the same value gets the same answer either way.
 *
 * @param redisUri               one Redis URI, or a comma list
 * @param mode                   how to reach Redis
 * @param syncReplicas           replicas that must acknowledge an acquisition, 0 for none
 * @param syncTimeout            how long to wait for them; checked only when there are some
 * @param commandTimeout         how long one Redis command may take
 * @param keyPrefix              the start of every key
 * @param lease                  the watchdog lease
 * @param fencingCounterLifetime how long a fencing counter lives
 * @param defaultWait            how long {@code @Locked} waits unless it says otherwise
 * @param namePatterns           name patterns that label locks in metrics, or null for none
 */
public record SettingsDraft(String redisUri, RedisMode mode, int syncReplicas, Duration syncTimeout,
                            Duration commandTimeout, String keyPrefix, Duration lease,
                            Duration fencingCounterLifetime, Duration defaultWait, List<String> namePatterns) {

    /**
     * Checks every setting, in the order a reader of the message would fix them.
     *
     * @return the Redis URIs, parsed
     * @throws SettingException naming the first bad setting, its value and the fix
     */
    public List<RedisURI> check() {
        SettingRules.mode(mode);
        SettingRules.syncReplicas(syncReplicas, mode);
        SettingRules.keyPrefix(keyPrefix);
        SettingRules.lease(lease);
        SettingRules.commandTimeout(commandTimeout);
        if (syncReplicas > 0) {
            SettingRules.syncTimeout(syncTimeout, commandTimeout);
        }
        SettingRules.fencingCounterLifetime(fencingCounterLifetime);
        SettingRules.defaultWait(defaultWait);
        SettingRules.namePatterns(namePatterns);
        try {
            return RedisUris.parse(redisUri, mode);
        } catch (IllegalArgumentException e) {
            // RedisUris names the URI, its password masked, so the message has no subject of its own.
            throw new SettingException(Setting.REDIS_URI, e.getMessage());
        }
    }
}
