package dev.locksmith.internal.redis;

import dev.locksmith.RedisMode;
import io.lettuce.core.RedisURI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads the {@code redisUri} setting (one URI, or a comma list) and prints URIs without secrets:
 * a printed URI never carries a user name or password.
 */
public final class RedisUris {
    /** The {@code user:password@} or {@code password@} part of a URI, without the {@code @}. */
    private static final Pattern USER_INFO = Pattern.compile("://([^/@,]*)@");
    private RedisUris() {
    }

    /**
     * @param setting the configured URI or comma list
     * @param mode    the configured mode, which decides how many URIs are allowed
     * @return the parsed URIs
     * @throws IllegalArgumentException naming the bad value and the fix
     */
    public static List<RedisURI> parse(String setting, RedisMode mode) {
        if (setting == null || setting.isBlank()) {
            throw new IllegalArgumentException("Redis URI is missing: set locksmith.redis.uri (or Locksmith.builder()"
                    + ".redisUri(...)), for example redis://127.0.0.1:6379");
        }
        List<RedisURI> uris = new ArrayList<>();
        // A comma starts a new URI only before a scheme: a Sentinel URI lists its sentinels with commas.
        for (String part : setting.split(",(?=\\s*(redis|rediss|redis-sentinel)://)")) {
            String trimmed = part.trim();
            if (trimmed.isEmpty()) {
                throw new IllegalArgumentException("Redis URI list '" + redacted(setting)
                        + "' has an empty entry; separate URIs with single commas");
            }
            try {
                uris.add(RedisURI.create(trimmed));
            } catch (IllegalArgumentException e) {
                // The parser quotes the whole URI, password included: neither its message nor the
                // exception itself may travel on.
                throw new IllegalArgumentException("Redis URI '" + redacted(trimmed) + "' is not valid: "
                        + scrubbed(String.valueOf(e.getMessage()), trimmed) + ". Use redis://host:port, rediss://host:port"
                        + " or redis-sentinel://host:port#master, with characters such as spaces percent-encoded");
            }
        }
        checkCount(uris, mode, setting);
        return List.copyOf(uris);
    }

    private static void checkCount(List<RedisURI> uris, RedisMode mode, String setting) {
        switch (mode) {
            case STANDALONE, SENTINEL -> {
                if (uris.size() != 1) {
                    throw new IllegalArgumentException("Redis mode " + mode + " takes one URI, got " + uris.size()
                            + " in '" + redacted(setting) + "'. For several nodes choose mode CLUSTER or REDLOCK.");
                }
            }
            case REDLOCK -> {
                if (uris.size() < 3 || uris.size() % 2 == 0) {
                    throw new IllegalArgumentException("Redis mode REDLOCK needs an odd number of independent masters,"
                            + " three or more; got " + uris.size() + " in '" + redacted(setting) + "'");
                }
            }
            case CLUSTER -> {
                // any number of seeds is fine: Lettuce discovers the rest of the cluster
            }
        }
    }

    /**
     * @param uris URIs
     * @return the URIs as text with passwords replaced by {@code ****}
     */
    public static String redacted(List<RedisURI> uris) {
        return uris.stream().map(RedisUris::redacted).collect(Collectors.joining(","));
    }

    private static String redacted(RedisURI uri) {
        if (!uri.getSentinels().isEmpty()) {
            return "redis-sentinel://" + uri.getSentinels().stream()
                    .map(sentinel -> sentinel.getHost() + ":" + sentinel.getPort())
                    .collect(Collectors.joining(",")) + "#" + uri.getSentinelMasterId();
        }
        return (uri.isSsl() ? "rediss://" : "redis://") + uri.getHost() + ":" + uri.getPort();
    }

    /**
     * @param message a message that may quote {@code uri}
     * @param uri     a URI as the user wrote it
     * @return the message with the URI and its password, wherever they appear, masked
     */
    private static String scrubbed(String message, String uri) {
        String safe = message.replace(uri, redacted(uri));
        Matcher userInfo = USER_INFO.matcher(uri);
        while (userInfo.find()) {
            String info = userInfo.group(1);
            String secret = info.indexOf(':') >= 0 ? info.substring(info.indexOf(':') + 1) : info;
            if (!secret.isEmpty()) {
                safe = safe.replace(secret, "****");
            }
        }
        return safe;
    }

    /**
     * @param text a URI or a comma list of them, as the user wrote it
     * @return the same text with every {@code user:password@} replaced by {@code user:****@}
     */
    public static String redacted(String text) {
        return text.replaceAll("(://[^:/@,]*:)[^@,]*@", "$1****@").replaceAll("(://)([^:/@,]+)@", "$1****@");
    }
}
