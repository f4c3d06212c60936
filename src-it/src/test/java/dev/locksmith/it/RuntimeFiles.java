package dev.locksmith.it;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The runtimes and files the build put in place for the suite (src-it/pom.xml passes their
 * paths as system properties).
 */
final class RuntimeFiles {
    private RuntimeFiles() {
    }

    /**
     * @param property the system property that names it, such as {@code payara.micro.jar}
     * @return the path, which exists
     * @throws IllegalStateException naming the property and how to get the file
     */
    static Path file(String property) {
        String value = System.getProperty(property);
        if (value == null || !Files.exists(Path.of(value))) {
            throw new IllegalStateException("System property " + property + " = " + value + " names no file; run the"
                    + " suite through Maven (./mvnw -pl liberty-sample,src-it -am verify), which downloads the runtimes"
                    + " and sets it");
        }
        return Path.of(value);
    }
}
