package dev.locksmith.netty41;

import dev.locksmith.Locksmith;
import dev.locksmith.internal.cdi.LocksmithExtension;
import dev.locksmith.testing.WeldLiteExtension;
import org.jboss.weld.environment.se.Weld;

/**
 * Started in its own JVM by {@link NettyLineMismatchTest}: makes a lock manager one of three ways
 * ({@code builder}, {@code portable}, {@code lite}) and prints {@code STARTED}, or
 * {@code FAILED} and the exception with its causes, one per line.
 */
public final class MismatchedLinesApp {
    private MismatchedLinesApp() {
    }

    public static void main(String[] args) {
        String how = args[0];
        try {
            switch (how) {
                case "builder" -> Locksmith.builder().redisUri(args[1]).build().close();
                case "portable" -> new Weld("mismatch-portable").disableDiscovery()
                        .addExtension(new LocksmithExtension()).addBeanClass(Probe.class).initialize().shutdown();
                case "lite" -> new Weld("mismatch-lite").disableDiscovery()
                        .addBuildCompatibleExtensions(WeldLiteExtension.class).addBeanClass(Probe.class)
                        .initialize().shutdown();
                default -> throw new IllegalArgumentException("builder, portable or lite, not " + how);
            }
            System.out.println("STARTED");
            System.exit(0);
        } catch (Throwable failure) {
            System.out.println("FAILED");
            for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
                System.out.println("CAUSE " + cause);
            }
            System.exit(3);
        }
    }

    /** Weld SE refuses to start without a bean class. */
    @jakarta.enterprise.context.ApplicationScoped
    public static class Probe {
    }
}
