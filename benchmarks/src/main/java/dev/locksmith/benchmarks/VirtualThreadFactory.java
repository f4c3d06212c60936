package dev.locksmith.benchmarks;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Makes the virtual threads of the virtual-thread rows. The harness is compiled for Java 17, where
 * {@code Thread.ofVirtual()} does not exist, so the builder is reached by reflection.
 */
final class VirtualThreadFactory {
    private VirtualThreadFactory() {
    }

    /**
     * @return whether this JVM has virtual threads (Java 21+)
     */
    static boolean available() {
        return Runtime.version().feature() >= 21;
    }

    /**
     * @return why the virtual-thread rows cannot run here, naming the fix
     */
    static String unavailable() {
        return "The virtual-thread rows (virtual_1, virtual_4) need Java 21 or later; this is Java "
                + Runtime.version() + " at " + System.getProperty("java.home") + ". Run the benchmark with a JDK 21+,"
                + " for example /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar benchmarks/target/locksmith-benchmarks.jar";
    }

    /**
     * @param name the thread's name
     * @param task what it runs
     * @return an unstarted virtual thread
     * @throws IllegalStateException on a JDK before 21, saying so
     */
    static Thread unstarted(String name, Runnable task) {
        if (!available()) {
            throw new IllegalStateException(unavailable());
        }
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Class<?> builderType = Class.forName("java.lang.Thread$Builder");
            Method named = builderType.getMethod("name", String.class);
            Method unstarted = builderType.getMethod("unstarted", Runnable.class);
            return (Thread) unstarted.invoke(named.invoke(builder, name), task);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("Thread.ofVirtual() failed: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Java " + Runtime.version() + " has no Thread.ofVirtual()", e);
        }
    }
}
