package dev.locksmith.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One WildFly server with its default {@code standalone.xml} ({@link OtherRuntime#WILDFLY}), which
 * has no MicroProfile Health: the sample deploys, locks, and Locksmith says its readiness check is
 * off. The two-server checks run with Health on ({@link WildFlyIT}).
 */
class WildFlyWithoutHealthIT {
    @RegisterExtension
    static final SampleCluster cluster = SampleCluster.sharingPostgres(OtherRuntime.WILDFLY, 1);

    private final SampleClient server = cluster.server(0);

    @Test
    void withoutMicroProfileHealthTheSampleLocksAndLocksmithSaysItsCheckIsOff() {
        String sku = SampleCluster.freshSku("no-health");
        server.restock(sku, 5);

        List<Reply> reservations = Stream.of(Via.values()).map(via -> server.reserve(sku, 1, via)).toList();
        Reply readiness = server.readiness();

        assertThat(reservations).as("a reservation through every locked path").allMatch(reply -> reply.status() == 201);
        assertThat(server.level(sku).integer("available")).isEqualTo(1);
        assertThat(cluster.process(0).log()).as("Locksmith's startup line")
                .anyMatch(line -> line.contains("@Locked method(s) checked")
                        && line.contains("MicroProfile Health off (no readiness check)"));
        assertThat(readiness.status()).as("WildFly's own server checks: %s", readiness).isEqualTo(200);
        assertThat(Readiness.locksmithCheck(readiness)).as("%s", readiness).isEmpty();
    }
}
