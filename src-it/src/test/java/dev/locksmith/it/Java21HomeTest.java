package dev.locksmith.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the suite finds the JDK 21+ of the Jakarta EE 11 servers, on a made-up {@code /usr/lib/jvm}.
 */
class Java21HomeTest {
    @TempDir
    Path jvms;

    @Test
    void theNewestJdk21OrLaterIsChosenWhenNoneIsNamed() throws IOException {
        jdk("java-17", "17.0.15");
        Path jdk21 = jdk("jdk-21", "21.0.8");
        jdk("not-a-jdk", null);

        assertThat(Java21Home.find(null, jvms)).isEqualTo(jdk21);

        Path jdk25 = jdk("temurin-25", "25.0.3");
        assertThat(Java21Home.find("", jvms)).isEqualTo(jdk25);
    }

    @Test
    void withoutAJdk21TheErrorNamesThePropertyAndWhatWasSeen() throws IOException {
        jdk("java-17", "17.0.15");

        assertThatThrownBy(() -> Java21Home.find(null, jvms))
                .hasMessageContaining("-Dit.java21.home=")
                .hasMessageContaining("JAVA21_HOME")
                .hasMessageContaining("java-17 (17)");
    }

    @Test
    void aNamedJdkOlderThan21IsRefusedByName() throws IOException {
        Path jdk17 = jdk("java-17", "17.0.15");

        assertThatThrownBy(() -> Java21Home.find(jdk17.toString(), jvms))
                .hasMessageContaining("it.java21.home = " + jdk17 + " is Java 17");
        assertThatThrownBy(() -> Java21Home.find(jvms.resolve("missing").toString(), jvms))
                .hasMessageContaining("not a JDK");
    }

    private Path jdk(String name, String version) throws IOException {
        Path home = Files.createDirectories(jvms.resolve(name).resolve("bin"));
        Path java = Files.writeString(home.resolve("java"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        if (version != null) {
            Files.writeString(jvms.resolve(name).resolve("release"), "IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"" + version + "\"\n");
        }
        return jvms.resolve(name);
    }
}
