package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.FreePorts;
import dev.locksmith.testing.LocalRedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Redis with an ACL user and password, and Redis over TLS: credentials in the URI are used,
 * and never appear in a log line or an error message.
 */
class SecuredConnectionTest {
    private static final String PASSWORD = "s3cret-Pa55";

    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record.getMessage() + (record.getThrown() == null ? "" : " " + record.getThrown()));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureLogs() {
        Logger.getLogger("").addHandler(capture);
    }

    @AfterEach
    void stopCapturing() {
        Logger.getLogger("").removeHandler(capture);
    }

    @Test
    void anAclUserInTheUriLocksAndItsPasswordIsNeverLogged() throws Exception {
        try (LocalRedisServer server = LocalRedisServer.start("--user", "default", "off",
                "--user", "locksmith", "on", ">" + PASSWORD, "~*", "&*", "+@all")) {
            String uri = "redis://locksmith:" + PASSWORD + "@127.0.0.1:" + server.port();

            try (LockManager locks = Locksmith.builder().redisUri(uri).build()) {
                DistributedLock lock = locks.getLock("guarded");
                assertThat(lock.tryLock(1, TimeUnit.SECONDS)).isTrue();
                lock.unlock();
            }
            assertThatThrownBy(() -> Locksmith.builder()
                    .redisUri("redis://locksmith:wrong-" + PASSWORD + "@127.0.0.1:" + server.port()).build())
                    .isInstanceOf(LockException.class)
                    .hasMessageNotContaining(PASSWORD);

            assertThat(logged).isNotEmpty().noneMatch(line -> line.contains(PASSWORD));
        }
    }

    @Test
    void redissLocksOverTls() throws Exception {
        Path certificates = Files.createTempDirectory("locksmith-tls-");
        generateCertificate(certificates);
        int tlsPort = FreePorts.next();
        try (LocalRedisServer server = LocalRedisServer.start("--tls-port", Integer.toString(tlsPort),
                "--tls-cert-file", certificates.resolve("cert.pem").toString(),
                "--tls-key-file", certificates.resolve("key.pem").toString(),
                "--tls-ca-cert-file", certificates.resolve("cert.pem").toString(),
                "--tls-auth-clients", "no");
             // The certificate is made up here, so the test does not verify it; in production
             // leave verifyPeer out and let the JVM's truststore vouch for the server.
             LockManager locks = Locksmith.builder()
                     .redisUri("rediss://127.0.0.1:" + tlsPort + "?verifyPeer=NONE").build()) {
            DistributedLock lock = locks.getLock("encrypted");

            assertThat(lock.tryLock(1, TimeUnit.SECONDS)).isTrue();
            assertThat(server.command("EXISTS", "locksmith:{encrypted}")).as("the lock is on the TLS server").isEqualTo("1");
            lock.unlock();
            assertThat(logged).anyMatch(line -> line.contains("rediss://127.0.0.1:" + tlsPort));
        }
    }

    static void generateCertificate(Path directory) throws IOException, InterruptedException {
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                "-subj", "/CN=127.0.0.1", "-days", "1",
                "-keyout", directory.resolve("key.pem").toString(), "-out", directory.resolve("cert.pem").toString())
                .redirectErrorStream(true).start();
        String output = new String(openssl.getInputStream().readAllBytes());
        if (!openssl.waitFor(30, TimeUnit.SECONDS) || openssl.exitValue() != 0) {
            throw new IllegalStateException("openssl could not make a test certificate: " + output);
        }
    }
}
