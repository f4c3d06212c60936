package dev.locksmith.sample.concurrency;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Whether a thread is virtual, asked without naming {@code Thread.isVirtual()}: the sample is
 * compiled for Java 17, where that method does not exist, and runs on Java 21 and later too.
 */
final class ThreadKind {
    private static final MethodHandle IS_VIRTUAL = isVirtualMethod();

    private ThreadKind() {
    }

    /**
     * @return whether {@code thread} is a virtual thread; always false before Java 21
     */
    static boolean isVirtual(Thread thread) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(thread);
        } catch (Throwable e) {
            throw new IllegalStateException("Thread.isVirtual() failed on " + thread, e);
        }
    }

    private static MethodHandle isVirtualMethod() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;   // Java 17: no virtual threads
        }
    }
}
