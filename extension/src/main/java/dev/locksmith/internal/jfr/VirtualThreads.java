package dev.locksmith.internal.jfr;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Tells whether a thread is virtual. The library is compiled for Java 17, where {@code Thread.isVirtual()}
 * does not exist, so the method is looked up once; on a JDK without it every thread is a platform thread.
 */
final class VirtualThreads {
    private static final MethodHandle IS_VIRTUAL = isVirtualMethod();

    private VirtualThreads() {
    }

    /**
     * @param thread any thread
     * @return whether it is a virtual thread (never, before Java 21)
     */
    static boolean isVirtual(Thread thread) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(thread);
        } catch (Throwable impossible) {
            throw new IllegalStateException("Thread.isVirtual() failed on " + thread, impossible);
        }
    }

    private static MethodHandle isVirtualMethod() {
        try {
            return MethodHandles.publicLookup()
                    .findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException beforeJava21) {
            return null;
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Thread.isVirtual() is public since Java 21, yet it could not be"
                    + " reached", e);
        }
    }
}
