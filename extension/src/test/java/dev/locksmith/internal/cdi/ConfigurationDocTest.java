package dev.locksmith.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.Locked;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
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
                    .contains("| `" + key.key() + "` | `" + documentedDefault(key) + "` |");
        }
    }

    @Test
    void everyOverrideTheCodeReadsIsDocumented() throws IOException {
        String doc = doc();

        for (String attribute : overridableAttributes()) {
            assertThat(doc).contains("`Locked/" + attribute + "`");
        }
    }

    @Test
    void theDocumentedOverridesAreNoMoreThanTheCodeReads() throws IOException {
        Set<String> documented = found("Locked/(\\w+)`", doc());

        assertThat(documented).containsExactlyInAnyOrderElementsOf(overridableAttributes());
    }

    @Test
    void theDocumentedKeysAreNoMoreThanTheCodeReads() throws IOException {
        Set<String> documented = found("(?m)^\\| `(locksmith\\.[a-z.-]+)` \\|", doc());

        Set<String> read = Arrays.stream(ConfigKey.values()).map(ConfigKey::key).collect(Collectors.toSet());
        assertThat(documented).containsExactlyInAnyOrderElementsOf(read);
    }

    /**
     * @return what the first group of {@code regex} matched, everywhere in {@code text}
     */
    private static Set<String> found(String regex, String text) {
        Matcher matches = Pattern.compile(regex).matcher(text);
        Set<String> found = new TreeSet<>();
        while (matches.find()) {
            found.add(matches.group(1));
        }
        return found;
    }

    /**
     * The default as the table shows it: {@code (none)} when there is none.
     */
    private static String documentedDefault(ConfigKey key) {
        return key.defaultValue().isEmpty() ? "(none)" : key.defaultValue();
    }

    /**
     * The attributes whose overrides the code reads: the names {@link LockedOverrides} declares
     * for them, each checked to be an attribute of {@code @Locked}.
     */
    private static List<String> overridableAttributes() {
        Set<String> annotation = Arrays.stream(Locked.class.getDeclaredMethods()).map(Method::getName)
                .collect(Collectors.toSet());
        List<String> attributes = Arrays.stream(LockedOverrides.class.getDeclaredFields())
                .filter(field -> Modifier.isStatic(field.getModifiers()) && field.getType() == String.class)
                .map(ConfigurationDocTest::constant).toList();

        assertThat(attributes).as("attributes LockedOverrides names").isNotEmpty();
        assertThat(annotation).as("attributes of @Locked").containsAll(attributes);
        return attributes;
    }

    private static String constant(Field field) {
        try {
            return (String) field.get(null);
        } catch (IllegalAccessException e) {
            throw new AssertionError(field + " is not readable", e);
        }
    }
}
