package dev.locksmith.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sample as a newcomer first runs it: one server, the embedded database, no test hooks,
 * only Redis given.
 */
class SingleServerDefaultsIT {
    @RegisterExtension
    static final SampleCluster cluster = SampleCluster.singleServerWithDefaults();

    private final SampleClient server = cluster.server(0);

    @Test
    void runsOnTheEmbeddedDatabaseWithNothingElseInstalled() {
        Reply info = server.info();

        assertThat(info.status()).isEqualTo(200);
        assertThat(info.string("database")).startsWith("H2");
        assertThat(info.body()).as("the WAR carries no test hooks").doesNotContainKey("testHooks");
    }

    @Test
    void reservesThroughTheCdiBeanAndTheEjb() {
        String sku = SampleCluster.freshSku("espresso");
        server.restock(sku, 3);

        Reply byCdi = server.reserve(sku, 1, Via.CDI);
        Reply byEjb = server.reserve(sku, 1, Via.EJB);
        Reply tooMany = server.reserve(sku, 5, Via.CDI);

        assertThat(byCdi.status()).as("%s", byCdi).isEqualTo(201);
        assertThat(byEjb.status()).as("%s", byEjb).isEqualTo(201);
        assertThat(byEjb.integer("availableBefore")).isEqualTo(2);
        assertThat(tooMany.status()).isEqualTo(409);
        assertThat(tooMany.code()).isEqualTo("OUT_OF_STOCK");
        assertThat(server.level(sku).integer("available")).isEqualTo(1);
        assertThat(server.level(sku).integer("reserved")).isEqualTo(2);
    }

    @Test
    void unknownSkusAndBadRequestsGetClearAnswers() {
        assertThat(server.reserve("no-such-sku", 1, Via.EJB).code()).isEqualTo("UNKNOWN_SKU");
        assertThat(server.reserve("no-such-sku", 0, Via.CDI).code()).isEqualTo("BAD_REQUEST");
    }

    @Test
    void reservesThroughTheLockManager() {
        String sku = SampleCluster.freshSku("manager");
        server.restock(sku, 2);

        Reply reply = server.reserve(sku, 1, Via.MANAGER);

        assertThat(reply.status()).as("%s", reply).isEqualTo(201);
        assertThat(reply.string("via")).isEqualTo("manager");
    }
}
