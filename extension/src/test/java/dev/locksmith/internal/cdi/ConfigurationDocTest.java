package dev.locksmith.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} documents exactly the keys the code reads, with their defaults.
 */
class ConfigurationDocTest {
    private static final Path DOC = Path.of("..", "docs", "configuration.md");

    private static String doc() throws IOException {
        return Files.readString(DOC);
    }

    @Test
    void everyKeyTheCodeReadsIsDocumentedWithItsDefault() throws IOException {
        String doc = doc();

        for (ConfigKey key : ConfigKey.values()) {
            assertThat(doc).as("row of %s", key.key())
                    .contains("| `" + key.key() + "` | `" + key.documentedDefault() + "` |");
        }
    }

    @Test
    void everyOverrideTheCodeReadsIsDocumented() throws IOException {
        String doc = doc();

        for (String attribute : LockedOverrides.ATTRIBUTES) {
            assertThat(doc).contains("`Locked/" + attribute + "`");
        }
    }

    @Test
    void theDocumentedKeysAreNoMoreThanTheCodeReads() throws IOException {
        Matcher rows = Pattern.compile("(?m)^\\| `(locksmith\\.[a-z.-]+)` \\|").matcher(doc());
        Set<String> documented = new TreeSet<>();
        while (rows.find()) {
            documented.add(rows.group(1));
        }

        Set<String> read = Arrays.stream(ConfigKey.values()).map(ConfigKey::key).collect(Collectors.toSet());
        assertThat(documented).containsExactlyInAnyOrderElementsOf(read);
    }
}
