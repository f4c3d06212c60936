package dev.locksmith.internal.observe;

import java.util.concurrent.Callable;

/**
 * What a guarded call ({@code @Locked}, {@code callWithLock}) tells the acquisition it makes on
 * the same thread: the template that names the lock in metrics, and that the wait gets a span.
 */
public final class CallContext {
    private static final ThreadLocal<CallContext> CURRENT = new ThreadLocal<>();

    private final String template;
    private final boolean skipsWhenHeld;

    private CallContext(String template, boolean skipsWhenHeld) {
        this.template = template;
        this.skipsWhenHeld = skipsWhenHeld;
    }

    /**
     * Runs {@code acquisition} with the given template (null: the lock's name decides) as a traced call.
     */
    public static <T> T during(String template, Callable<T> acquisition) throws Exception {
        return during(template, false, acquisition);
    }

    /**
     * Runs {@code acquisition} with the given template as a traced call that, when the lock is held
     * elsewhere, skips its work rather than failing: its wait's outcome is then {@code skipped}.
     */
    public static <T> T during(String template, boolean skipsWhenHeld, Callable<T> acquisition) throws Exception {
        CallContext outer = CURRENT.get();
        CURRENT.set(new CallContext(template, skipsWhenHeld));
        try {
            return acquisition.call();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    /**
     * @return the context of the guarded call on this thread, or null outside one
     */
    public static CallContext current() {
        return CURRENT.get();
    }

    /**
     * @return whether the guarded call on this thread skips its work when the lock is held
     */
    public static boolean skipsWhenHeld() {
        CallContext current = CURRENT.get();
        return current != null && current.skipsWhenHeld;
    }

    /**
     * @return the template the call named, or null
     */
    public String template() {
        return template;
    }
}
