package dev.locksmith.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The JDK that runs the Jakarta EE 11 servers (Payara Micro 7, WildFly Preview 38), which need
 * Java 21 or later while the build itself runs on Java 17: the system property {@value #PROPERTY}
 * (set by src-it/pom.xml from the Maven property of that name, or the environment variable
 * {@value #VARIABLE}), else the newest JDK 21+ under {@value #JVM_DIR}.
 */
final class Java21Home {
    static final String PROPERTY = "it.java21.home";
    static final String VARIABLE = "JAVA21_HOME";
    private static final String JVM_DIR = "/usr/lib/jvm";
    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);
    private static volatile Path found;

    private Java21Home() {
    }

    /**
     * @return the home of a JDK of version 21 or later
     * @throws IllegalStateException naming the property to set when none is configured or found,
     *                               or when the configured one is not a JDK 21+
     */
    static Path path() {
        if (found == null) {
            found = find();
        }
        return found;
    }

    private static Path find() {
        String configured = Optional.ofNullable(System.getProperty(PROPERTY)).filter(value -> !value.isBlank())
                .orElse(System.getenv(VARIABLE));
        return find(configured, Path.of(JVM_DIR));
    }

    /**
     * @param configured the JDK named by the property or variable, or null
     * @param dir        where to look for one when none is named
     * @return the named JDK, or the newest JDK 21+ in {@code dir}
     * @throws IllegalStateException as {@link #path()}
     */
    static Path find(String configured, Path dir) {
        if (configured != null && !configured.isBlank()) {
            Path home = Path.of(configured);
            int version = version(home);
            if (version < 21) {
                throw new IllegalStateException(PROPERTY + " = " + configured + " is " + (version < 0
                        ? "not a JDK (no bin/java and release file)" : "Java " + version) + "; Payara Micro 7 and"
                        + " WildFly Preview need Java 21 or later: set -D" + PROPERTY + "=/path/to/jdk-21-or-later");
            }
            return home;
        }
        List<String> seen = new ArrayList<>();
        Path best = null;
        int bestVersion = 0;
        if (Files.isDirectory(dir)) {
            try (Stream<Path> homes = Files.list(dir)) {
                for (Path home : (Iterable<Path>) homes.sorted()::iterator) {
                    int version = version(home);
                    seen.add(home.getFileName() + (version < 0 ? "" : " (" + version + ")"));
                    if (version >= 21 && version > bestVersion) {
                        best = home;
                        bestVersion = version;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Could not list " + dir, e);
            }
        }
        if (best == null) {
            throw new IllegalStateException("Payara Micro 7 and WildFly Preview need Java 21 or later, and none was"
                    + " found: set -D" + PROPERTY + "=/path/to/jdk-21-or-later (or the environment variable " + VARIABLE
                    + "); looked in " + dir + ": " + seen);
        }
        return best;
    }

    /**
     * @return the JDK's feature version from its {@code release} file, or -1 if it is no JDK
     */
    private static int version(Path home) {
        Path release = home.resolve("release");
        if (!Files.isExecutable(home.resolve("bin/java")) || !Files.isRegularFile(release)) {
            return -1;
        }
        try {
            Matcher version = VERSION.matcher(Files.readString(release));
            if (!version.find()) {
                return -1;
            }
            int feature = Integer.parseInt(version.group(1));
            return feature == 1 ? 8 : feature;   // "1.8.0_..." is Java 8
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + release, e);
        }
    }
}
