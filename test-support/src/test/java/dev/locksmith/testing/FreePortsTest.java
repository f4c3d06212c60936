package dev.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Ports for servers the tests start must not be ones the kernel may give a client meanwhile.
 */
class FreePortsTest {
    private static final Path PORT_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    @Test
    void portsAreTakenBelowTheKernelsRangeForOutgoingConnections() throws IOException {
        assumeTrue(Files.isReadable(PORT_RANGE), "only Linux says where its ephemeral range starts");
        int ephemeralLow = Integer.parseInt(Files.readAllLines(PORT_RANGE).get(0).trim().split("\\s+")[0]);
        assumeTrue(ephemeralLow > 16_000, "a range starting this low leaves no room below it");

        IntStream.range(0, 50).map(i -> FreePorts.next())
                .forEach(port -> assertThat(port).isBetween(15_000, ephemeralLow - 1));
    }
}
