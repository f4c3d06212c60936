package dev.locksmith.internal.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import java.io.IOException;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * Tells what a failed Redis call means: worth asking again (the connection dropped, the server
 * is loading, busy, failing over, or did not answer in time) or not (Redis refused the request
 * itself: a missing permission, a wrong key type, keys in different slots, a bad argument, a
 * full memory). Retrying the second kind cannot help; it only hides the reason.
 */
public final class RedisErrors {
    /** Error codes of answers that a later retry may get past. */
    private static final Set<String> TRANSIENT_CODES = Set.of("LOADING", "BUSY", "TRYAGAIN", "CLUSTERDOWN",
            "MASTERDOWN", "READONLY");

    private RedisErrors() {
    }

    /**
     * @param failure a failure of a Redis call, with its causes
     * @return true when asking again may succeed
     */
    public static boolean isTransient(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RedisConnectionException || cause instanceof RedisCommandTimeoutException
                    || cause instanceof TimeoutException || cause instanceof IOException) {
                return true;
            }
            if (cause instanceof RedisException redis) {
                String code = code(redis);
                if (TRANSIENT_CODES.contains(code)) {
                    return true;
                }
                if (cause instanceof RedisCommandExecutionException) {
                    return false; // the server answered with an error
                }
                // A client-side failure, such as "Connection closed" while a command was in flight.
                return true;
            }
        }
        return false;
    }

    /**
     * @param failure a failure of a Redis call
     * @return its class for metrics: {@code transient}, or the code Redis answered with (such as
     *         {@code NOPERM}), or the client's exception
     */
    public static String kind(Throwable failure) {
        if (isTransient(failure)) {
            return "transient";
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RedisCommandExecutionException answer) {
                return code(answer);
            }
        }
        return failure.getClass().getSimpleName();
    }

    /**
     * @param failure a failure of a Redis call
     * @return what Redis answered, quoted, with the fix where one is known; or the client's reason
     */
    public static String describe(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RedisCommandExecutionException answer) {
                String message = answer.getMessage();
                return "Redis answered '" + message + "'" + hint(code(answer), message);
            }
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    private static String hint(String code, String message) {
        if (code.equals("NOPERM") || message.contains("can't run this command")
                || message.contains("no permissions")) {
            return ". The Redis user lacks a permission Locksmith needs; grant the ACL rules listed in"
                    + " docs/configuration.md (section \"Redis permissions\")";
        }
        if (code.equals("WRONGTYPE")) {
            return ". Something other than Locksmith wrote to a key under Locksmith's key prefix; give Locksmith a"
                    + " prefix of its own (locksmith.key-prefix)";
        }
        if (code.equals("CROSSSLOT")) {
            return ". The keys of one lock ended up in different cluster slots";
        }
        if (code.equals("OOM")) {
            return ". Redis reached maxmemory; free memory or raise maxmemory";
        }
        return "";
    }

    private static String code(RedisException failure) {
        String message = failure.getMessage();
        return message == null ? "" : message.split(" ", 2)[0].toUpperCase(Locale.ROOT);
    }
}
