package dev.locksmith.sample.concurrency;

/**
 * Which Jakarta Concurrency the server offers, asked of its API classes by name: this class never
 * names them, so it loads where Jakarta Concurrency is absent too.
 */
public final class ConcurrencyLevel {
    private static final boolean SCHEDULES = hasMember("jakarta.enterprise.concurrent.Asynchronous", "runAt");
    private static final boolean VIRTUAL_EXECUTORS =
            hasMember("jakarta.enterprise.concurrent.ManagedExecutorDefinition", "virtual");

    private ConcurrencyLevel() {
    }

    /**
     * @return whether the server has Concurrency 3.1's {@code @Asynchronous(runAt = ...)}
     */
    public static boolean hasScheduledAsynchronousMethods() {
        return SCHEDULES;
    }

    /**
     * @return whether the server has Concurrency 3.1's {@code @ManagedExecutorDefinition(virtual = true)}
     */
    public static boolean hasVirtualThreadExecutors() {
        return VIRTUAL_EXECUTORS;
    }

    private static boolean hasMember(String annotation, String member) {
        try {
            Class.forName(annotation, false, ConcurrencyLevel.class.getClassLoader()).getMethod(member);
            return true;
        } catch (ClassNotFoundException | NoSuchMethodException | LinkageError e) {
            return false;
        }
    }
}
