package dev.locksmith.testing;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The threads a test may look at from outside: those of Locksmith ({@code locksmith-*}) and of
 * its Redis client ({@code lettuce-*}), found by name, to prove that a closed manager leaves none
 * behind. This is the one test class that reads threads' states and stacks, and only to describe
 * a leaked or stuck thread in a failure message: a test learns where a lock call is by asking the
 * lock or its protocol objects, never a thread's frames ({@code ThreadWhereaboutsTest} holds every
 * other test to that).
 */
public final class LiveThreads {
    private LiveThreads() {
    }

    /**
     * @return the live threads of Locksmith and of the Redis client
     */
    public static Set<Thread> ofTheClient() {
        return named("lettuce-", "locksmith");
    }

    /**
     * @return the live threads of the Redis client only
     */
    public static Set<Thread> ofLettuce() {
        return named("lettuce-");
    }

    /**
     * @param name a thread's whole name
     * @return whether a live daemon thread has it
     */
    public static boolean daemonNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(thread -> thread.isAlive() && thread.isDaemon() && thread.getName().equals(name));
    }

    /**
     * @param thread a thread that should have ended or returned
     * @param frames how many of its frames to show
     * @return its name, state and top frames, for a failure message
     */
    public static String describe(Thread thread, int frames) {
        return thread.getName() + " (" + thread.getState() + " at " + Arrays.stream(thread.getStackTrace()).limit(frames)
                .map(String::valueOf).collect(Collectors.joining(" < ")) + ")";
    }

    private static Set<Thread> named(String... prefixes) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.isAlive() && Arrays.stream(prefixes).anyMatch(thread.getName()::startsWith))
                .collect(Collectors.toSet());
    }
}
