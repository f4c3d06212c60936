package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.locksmith.LockException;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.LiveThreads;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.FreePorts;
import dev.locksmith.testing.LocalRedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A connection that cannot be made says why (a refused password, an untrusted certificate),
 * never carries a password anywhere in its cause chain, and leaves no thread behind.
 */
class ConnectionErrorsTest {
    private static final String SECRET = "s3cretPW";

    @Test
    void aMalformedUriWithAPasswordNeverShowsThePassword() {
        Throwable failure = catchThrowable(() -> Locksmith.builder()
                .redisUri("redis://:" + SECRET + "@127.0.0.1:6390/x y").build());

        assertThat(failure).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not valid")
                .hasMessageContaining("127.0.0.1:6390");
        assertThat(chain(failure)).doesNotContain(SECRET);
        Throwable passwordOnly = catchThrowable(() -> Locksmith.builder()
                .redisUri("redis://" + SECRET + "@127.0.0.1:6390/x y").build());
        assertThat(chain(passwordOnly)).doesNotContain(SECRET);
    }

    @Test
    void aWrongPasswordSaysAuthenticationFailed() {
        try (LocalRedisServer server = LocalRedisServer.start("--requirepass", "right-" + SECRET)) {
            Throwable failure = catchThrowable(() -> Locksmith.builder()
                    .redisUri("redis://:wrong-" + SECRET + "@127.0.0.1:" + server.port()).build());

            assertThat(failure).isInstanceOf(LockException.class).hasMessageContaining("authentication failed")
                    .hasMessageContaining("WRONGPASS");
            assertThat(chain(failure)).doesNotContain(SECRET);
        }
    }

    @Test
    void nothingListeningSaysTheConnectionWasRefused() {
        int port = FreePorts.next();

        Throwable failure = catchThrowable(() -> Locksmith.builder().redisUri("redis://127.0.0.1:" + port).build());

        assertThat(failure).isInstanceOf(LockException.class).hasMessageContaining("refused")
                .hasMessageContaining("127.0.0.1:" + port);
    }

    @Test
    void anUntrustedCertificateSaysTheTlsHandshakeFailed() throws Exception {
        Path certificates = Files.createTempDirectory("locksmith-untrusted-");
        SecuredConnectionTest.generateCertificate(certificates);
        int tlsPort = FreePorts.next();
        try (LocalRedisServer server = LocalRedisServer.start("--tls-port", Integer.toString(tlsPort),
                "--tls-cert-file", certificates.resolve("cert.pem").toString(),
                "--tls-key-file", certificates.resolve("key.pem").toString(),
                "--tls-ca-cert-file", certificates.resolve("cert.pem").toString(),
                "--tls-auth-clients", "no")) {
            Throwable failure = catchThrowable(() -> Locksmith.builder()
                    .redisUri("rediss://127.0.0.1:" + tlsPort).commandTimeout(Duration.ofSeconds(2)).build());

            assertThat(failure).isInstanceOf(LockException.class).hasMessageContaining("TLS handshake failed")
                    .hasMessageContaining("truststore");
        } finally {
            deleteTree(certificates);
        }
    }

    @Test
    void aBuildThatFailsAfterConnectingLeavesNoThreadBehind() {
        try (LocalRedisServer server = LocalRedisServer.start()) {
            server.command("ACL", "SETUSER", "clockless", "on", ">pw", "~*", "&*", "+@all", "-time");
            long before = lettuceThreads();

            Throwable failure = catchThrowable(() -> Locksmith.builder()
                    .redisUri("redis://clockless:pw@127.0.0.1:" + server.port()).build());

            assertThat(failure).isInstanceOf(LockException.class).hasMessageContaining("time");
            Await.until("the Redis client's threads ended", Duration.ofSeconds(10), () -> lettuceThreads() <= before);
        }
    }

    private static long lettuceThreads() {
        return LiveThreads.ofLettuce().size();
    }

    private static String chain(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            text.append(cause).append('\n');
            for (Throwable suppressed : cause.getSuppressed()) {
                text.append(suppressed).append('\n');
            }
        }
        return text.toString();
    }

    private static void deleteTree(Path directory) throws IOException {
        try (var paths = Files.walk(directory)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
