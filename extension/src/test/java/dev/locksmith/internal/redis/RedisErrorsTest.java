package dev.locksmith.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.LockException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Which Redis answers a wait may ask past, and which end it at once.
 */
class RedisErrorsTest {

    @ParameterizedTest
    @ValueSource(strings = {"LOADING Redis is loading the dataset in memory", "BUSY Redis is busy running a script",
            "TRYAGAIN Multiple keys request during rehashing of slot", "CLUSTERDOWN The cluster is down",
            "MASTERDOWN Link with MASTER is down", "READONLY You can't write against a read only replica."})
    void answersOfAServerThatIsNotReadyYetAreWorthAskingAgain(String answer) {
        assertThat(RedisErrors.isTransient(wrapped(new RedisCommandExecutionException(answer)))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ERR invalid expire time in 'set' command",
            "NOPERM this user has no permissions to run the 'hgetall' command",
            "ERR The user executing the script can't run this command or subcommand script: f, on @user_script:1.",
            "WRONGTYPE Operation against a key holding the wrong kind of value",
            "CROSSSLOT Keys in request don't hash to the same slot",
            "OOM command not allowed when used memory > 'maxmemory'."})
    void answersThatRetryingCannotChangeEndTheWait(String answer) {
        assertThat(RedisErrors.isTransient(wrapped(new RedisCommandExecutionException(answer)))).isFalse();
        assertThat(RedisErrors.describe(new RedisCommandExecutionException(answer))).contains("Redis answered '" + answer);
    }

    @Test
    void aScriptStillUnknownAfterItsReloadIsNotWorthAskingAgain() {
        assertThat(RedisErrors.isTransient(new RedisNoScriptException("NOSCRIPT No matching script."))).isFalse();
    }

    @Test
    void aLostConnectionOrALateAnswerIsWorthAskingAgain() {
        assertThat(RedisErrors.isTransient(wrapped(new RedisConnectionException("Unable to connect")))).isTrue();
        assertThat(RedisErrors.isTransient(wrapped(new RedisCommandTimeoutException("Command timed out")))).isTrue();
        assertThat(RedisErrors.isTransient(new LockException("no answer", new TimeoutException()))).isTrue();
        assertThat(RedisErrors.isTransient(wrapped(new RedisException("Connection closed")))).isTrue();
        assertThat(RedisErrors.isTransient(wrapped(new RedisException("reset", new IOException("reset"))))).isTrue();
    }

    @Test
    void aRefusedPermissionPointsAtTheDocumentedRules() {
        assertThat(RedisErrors.describe(new RedisCommandExecutionException(
                "NOPERM this user has no permissions to run the 'time' command"))).contains("docs/configuration.md");
    }

    private static LockException wrapped(Throwable cause) {
        return new LockException("Acquiring lock 'x' failed", cause);
    }
}
