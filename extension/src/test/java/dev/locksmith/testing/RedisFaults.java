package dev.locksmith.testing;

import java.time.Duration;

/**
 * Makes a real Redis answer the way a failure would, on cue, for the step a test wants to fail:
 * BUSY (a script that runs until it is killed, with a low {@code busy-reply-threshold}), no
 * answer for a while ({@code CLIENT PAUSE ... WRITE}: writes and scripts wait, then run), and
 * OOM ({@code maxmemory} below what Redis uses, so every write is refused).
 */
public final class RedisFaults {
    private RedisFaults() {
    }

    /**
     * Runs a read-only script that never ends: from now on Redis answers every other command with
     * BUSY. Closing kills the script and restores the threshold.
     */
    public static AutoCloseable busy(RedisNode node) {
        node.command("CONFIG", "SET", "busy-reply-threshold", "20");
        Thread script = new Thread(() -> {
            try {
                node.command("EVAL", "while true do end", "0");
            } catch (IllegalStateException killed) {
                // SCRIPT KILL answers the script's own call with an error: that is its end.
            }
        }, "busy-script");
        script.setDaemon(true);
        script.start();
        Await.until("Redis answers BUSY", Duration.ofSeconds(10), () -> answersBusy(node));
        return () -> {
            Await.until("the busy script is killed", Duration.ofSeconds(10), () -> {
                try {
                    node.command("SCRIPT", "KILL");
                } catch (IllegalStateException notBusy) {
                    // NOTBUSY: it ended already.
                }
                return !answersBusy(node);
            });
            script.join(10_000);
            node.command("CONFIG", "SET", "busy-reply-threshold", "5000");
        };
    }

    /**
     * Holds every write and script for {@code pause}: a command sent now is answered only then,
     * after its client may have given up on it, and then it runs.
     */
    public static void pauseWrites(RedisNode node, Duration pause) {
        node.command("CLIENT", "PAUSE", Long.toString(pause.toMillis()), "WRITE");
    }

    /**
     * Waits, up to ten seconds, until Redis holds back at least {@code commands} commands under a
     * {@link #pauseWrites pause}: they were sent and reached Redis, and their answers wait for the
     * pause's end. Redis counts them among its blocked clients.
     */
    public static void awaitHeldByPause(RedisNode node, int commands) {
        Await.until(commands + " command(s) held back by the pause", Duration.ofSeconds(10),
                () -> blockedClients(node) >= commands);
    }

    private static long blockedClients(RedisNode node) {
        for (String line : node.command("INFO", "clients").split("\r?\n")) {
            if (line.startsWith("blocked_clients:")) {
                return Long.parseLong(line.substring("blocked_clients:".length()).trim());
            }
        }
        throw new IllegalStateException("INFO clients names no blocked_clients");
    }

    /**
     * Makes Redis refuse every write with OOM until closed.
     */
    public static AutoCloseable outOfMemory(RedisNode node) {
        node.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
        node.command("CONFIG", "SET", "maxmemory", "1");
        return () -> node.command("CONFIG", "SET", "maxmemory", "0");
    }

    private static boolean answersBusy(RedisNode node) {
        try {
            node.command("PING");
            return false;
        } catch (IllegalStateException e) {
            return e.getMessage().contains("BUSY");
        }
    }
}
