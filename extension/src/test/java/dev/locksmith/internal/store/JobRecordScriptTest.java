package dev.locksmith.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.RespClient;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The script that records a job's run ({@code last-run}) may run again after a failure halfway or
 * a lost reply: the run is listed once, and an older run repeated late never becomes the latest.
 */
class JobRecordScriptTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final String LAST_RUN = "locksmith:{interest}:last-run";
    private static final String RUNS = "locksmith:{interest}:runs";
    private static final String EARLIER = "1000|5|completed|7||main|interest:a|1000|pid 1 on a";
    private static final String LATER = "3000|5|completed|9||main|interest:b|3000|pid 2 on b";

    private static Object record(String run) {
        String body = LockScript.script("last-run").body();
        return RespClient.call(redis.node().port(), "EVAL", body, "2", LAST_RUN, RUNS, run, "86400000", "10");
    }

    @Test
    void aRunRecordedTwiceIsListedOnce() {
        record(EARLIER);

        record(EARLIER);

        assertThat(RespClient.call(redis.node().port(), "LRANGE", RUNS, "0", "-1")).isEqualTo(List.of(EARLIER));
        assertThat(RespClient.call(redis.node().port(), "GET", LAST_RUN)).isEqualTo(EARLIER);
    }

    @Test
    void anEarlierRunRepeatedAfterALaterOneStaysBehindIt() {
        record(EARLIER);
        record(LATER);

        record(EARLIER);

        assertThat(RespClient.call(redis.node().port(), "GET", LAST_RUN)).isEqualTo(LATER);
        assertThat(RespClient.call(redis.node().port(), "LRANGE", RUNS, "0", "-1")).isEqualTo(List.of(LATER, EARLIER));
    }
}
