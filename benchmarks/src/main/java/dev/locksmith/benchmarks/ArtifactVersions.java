package dev.locksmith.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Versions of the libraries on the class path, read from the {@code pom.properties} Maven puts
 * in every jar (the shaded jar keeps them), so the report names what was actually measured.
 */
final class ArtifactVersions {
    private ArtifactVersions() {
    }

    /**
     * @return the version, or {@code "?"} when the jar carries no {@code pom.properties}
     */
    static String of(String groupId, String artifactId) {
        String resource = "/META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
        try (InputStream in = ArtifactVersions.class.getResourceAsStream(resource)) {
            if (in == null) {
                return "?";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "?");
        } catch (IOException e) {
            return "?";
        }
    }
}
