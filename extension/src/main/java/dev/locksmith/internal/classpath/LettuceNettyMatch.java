package dev.locksmith.internal.classpath;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Optional;
import java.util.Properties;
import java.util.jar.Manifest;

/**
 * Whether the Lettuce on the class path can run on the Netty beside it. Lettuce 7 needs Netty 4.2
 * and, on Netty 4.1 (which Quarkus pins), loads, builds its client and then fails its first
 * connection with {@code NoClassDefFoundError: io/netty/channel/MultiThreadIoEventLoopGroup}.
 * This check finds that before anything connects, so the builder and both CDI extensions can fail
 * with the fix instead.
 *
 * <p>It asks the class files, not version numbers: Lettuce's event loop resources refer to the
 * Netty 4.2 class by name in their constant pool, and that class is loadable or not. It reads
 * Lettuce's class as bytes and loads no Lettuce or Netty class, so it cannot itself fail on the
 * mismatch it looks for.
 */
public final class LettuceNettyMatch {
    /** The Netty 4.2 class Lettuce 7's event loops are made of; Netty 4.1 does not have it. */
    static final String NETTY_42_CLASS = "io.netty.channel.MultiThreadIoEventLoopGroup";
    /** Where Lettuce makes its NIO event loops, the ones every platform can use. */
    private static final String LETTUCE_EVENT_LOOPS = "io/lettuce/core/resource/NioProvider$NioResources.class";
    private static final String LETTUCE_CLIENT = "io/lettuce/core/RedisClient.class";

    private LettuceNettyMatch() {
    }

    /**
     * @param loader the class loader that loads Locksmith's Lettuce (the library's own)
     * @return what is wrong and the fix, when this Lettuce needs a Netty class that is missing;
     *         empty when they match, or when Lettuce's class file cannot be read to tell
     */
    public static Optional<String> problem(ClassLoader loader) {
        if (!lettuceNeedsNetty42(loader) || isLoadable(NETTY_42_CLASS, loader)) {
            return Optional.empty();
        }
        return Optional.of("Lettuce " + lettuceVersion(loader) + " is on the class path with Netty "
                + nettyVersion(loader) + ", and this Lettuce needs Netty 4.2: every connection would fail with"
                + " NoClassDefFoundError: " + NETTY_42_CLASS.replace('.', '/') + ". A runtime that pins Netty 4.1"
                + " (Quarkus 3 does) needs Lettuce 6.8: depend on dev.locksmith:locksmith-netty41 in place of"
                + " dev.locksmith:locksmith (it brings the library with Lettuce 6.8), or pin io.lettuce:lettuce-core"
                + " to 6.8.2.RELEASE in your dependencyManagement. Where Netty can be upgraded, Netty 4.2 runs"
                + " Lettuce 7. See docs/lettuce.md");
    }

    /**
     * @return the problem for the class loader of Locksmith itself
     */
    public static Optional<String> problem() {
        return problem(LettuceNettyMatch.class.getClassLoader());
    }

    private static boolean lettuceNeedsNetty42(ClassLoader loader) {
        byte[] needle = NETTY_42_CLASS.replace('.', '/').getBytes(StandardCharsets.UTF_8);
        try (InputStream in = loader.getResourceAsStream(LETTUCE_EVENT_LOOPS)) {
            return in != null && contains(in.readAllBytes(), needle);
        } catch (IOException e) {
            return false; // unreadable: no evidence of a mismatch, and the first connect will say more
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static boolean isLoadable(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** From the manifest of Lettuce's jar, read as a resource: no Lettuce class is loaded. */
    private static String lettuceVersion(ClassLoader loader) {
        URL client = loader.getResource(LETTUCE_CLIENT);
        if (client != null && client.getProtocol().equals("jar")) {
            String jar = client.toString().substring(0, client.toString().indexOf("!/") + 2);
            try (InputStream in = URI.create(jar + "META-INF/MANIFEST.MF").toURL().openStream()) {
                String version = new Manifest(in).getMainAttributes().getValue("Implementation-Version");
                if (version != null) {
                    int build = version.indexOf('/');
                    return build > 0 ? version.substring(0, build) : version;
                }
            } catch (IOException | IllegalArgumentException e) {
                // fall through to the line this check knows it is
            }
        }
        return "7";
    }

    /** From {@code META-INF/io.netty.versions.properties}, which every Netty jar carries. */
    private static String nettyVersion(ClassLoader loader) {
        try {
            Enumeration<URL> files = loader.getResources("META-INF/io.netty.versions.properties");
            while (files.hasMoreElements()) {
                Properties versions = new Properties();
                try (InputStream in = files.nextElement().openStream()) {
                    versions.load(in);
                }
                String common = versions.getProperty("netty-common.version");
                if (common != null) {
                    return common;
                }
            }
        } catch (IOException e) {
            // fall through to the line this check knows it is
        }
        return "4.1";
    }
}
