package dev.locksmith.internal.observe;

import java.util.concurrent.Callable;

/**
 * What a guarded call ({@code @Locked}, {@code callWithLock}) tells the acquisition it makes on
 * the same thread: the template that names the lock in metrics, and that the wait gets a span.
 */
public final class CallContext {
    private static final ThreadLocal<CallContext> CURRENT = new ThreadLocal<>();

    private final String template;

    private CallContext(String template) {
        this.template = template;
    }

    /**
     * Runs {@code acquisition} with the given template (null: the lock's name decides) as a traced call.
     */
    public static <T> T during(String template, Callable<T> acquisition) throws Exception {
        CallContext outer = CURRENT.get();
        CURRENT.set(new CallContext(template));
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
     * @return the template the call named, or null
     */
    public String template() {
        return template;
    }
}
