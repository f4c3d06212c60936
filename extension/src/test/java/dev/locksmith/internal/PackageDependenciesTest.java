package dev.locksmith.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The internal packages depend one way, read off the import lines of the library's sources:
 * {@code cdi -> jta -> manager -> lock -> lock.call -> lock.local -> lock.ring -> lock.kind -> config -> otel -> jfr
 * -> lease -> store.redlock -> store -> redis -> observe -> wire -> classpath} (a sub-package with a place of its own is apart from its parent). A package may use those to its right,
 * never one to its left; only the builder of the public API reaches into the internals.
 */
class PackageDependenciesTest {
    private static final List<String> ORDER = List.of("cdi", "jta", "manager", "lock", "lock.call", "lock.local",
            "lock.ring", "lock.kind", "config", "otel", "jfr", "lease", "store.redlock", "store", "redis", "observe", "wire",
            "classpath");
    private static final Path SOURCES = Path.of("src/main/java/dev/locksmith");
    private static final Pattern INTERNAL_IMPORT = Pattern.compile("^import dev\\.locksmith\\.internal\\.([a-z.]+)\\.[A-Z]",
            Pattern.MULTILINE);

    @Test
    void internalPackagesDependOnlyOnThoseAfterThemInTheOrder() throws IOException {
        List<String> backwards = new ArrayList<>();
        for (String from : ORDER) {
            for (Path source : sources(from)) {
                Matcher imported = INTERNAL_IMPORT.matcher(Files.readString(source));
                while (imported.find()) {
                    String to = imported.group(1);
                    if (ORDER.indexOf(to) <= ORDER.indexOf(from)) {
                        backwards.add(from + " -> " + to + " in " + source.getFileName());
                    }
                }
            }
        }

        assertThat(backwards).isEmpty();
    }

    @Test
    void onlyTheBuilderOfThePublicApiReachesIntoTheInternals() throws IOException {
        List<String> reaching = new ArrayList<>();
        try (Stream<Path> files = Files.list(SOURCES)) {
            for (Path source : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                if (INTERNAL_IMPORT.matcher(Files.readString(source)).find()
                        && !source.getFileName().toString().equals("Locksmith.java")) {
                    reaching.add(source.getFileName().toString());
                }
            }
        }

        assertThat(reaching).isEmpty();
    }

    @Test
    void everyInternalPackageIsInTheOrder() throws IOException {
        try (Stream<Path> packages = Files.list(SOURCES.resolve("internal"))) {
            assertThat(packages.map(path -> path.getFileName().toString()).toList())
                    .containsExactlyInAnyOrderElementsOf(ORDER.stream().filter(name -> !name.contains(".")).toList());
        }
    }

    private static Path directory(String name) {
        return SOURCES.resolve("internal").resolve(name.replace('.', '/'));
    }

    /**
     * @return the package's sources, without those of its sub-packages that have a place of their own in the order
     */
    private static List<Path> sources(String name) {
        Path directory = directory(name);
        List<Path> ownSubPackages = ORDER.stream().filter(other -> other.startsWith(name + "."))
                .map(PackageDependenciesTest::directory).toList();
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(path -> path.toString().endsWith(".java"))
                    .filter(path -> ownSubPackages.stream().noneMatch(path::startsWith)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
