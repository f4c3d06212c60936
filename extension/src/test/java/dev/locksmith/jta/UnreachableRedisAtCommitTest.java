package dev.locksmith.jta;

import static dev.locksmith.testing.TestConfig.properties;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.locksmith.Locked;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.CdiContainers.Application;
import dev.locksmith.testing.InMemoryNaming;
import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.LogCapture;
import dev.locksmith.testing.Transactions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.RollbackException;
import jakarta.transaction.TransactionManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A lock the transaction holds cannot be confirmed before commit when Redis is gone: the
 * transaction rolls back rather than commit work the lock may no longer cover.
 */
class UnreachableRedisAtCommitTest {
    private final TransactionManager transactions = Transactions.manager();

    @AfterEach
    void cleanUp() {
        Transactions.rollBackLeftovers();
        InMemoryNaming.clear();
    }

    @Test
    void aCommitWhoseLocksCannotBeConfirmedRollsBackAndAfterCompletionDoesNotThrow() throws Exception {
        Transactions.bindInJndi();
        try (LocalRedisServer server = LocalRedisServer.start();
             LogCapture logs = LogCapture.start();
             Application app = CdiContainers.start(properties(server.uri(),
                     "locksmith.redis.command-timeout", "300ms"), Ledger.class)) {
            transactions.begin();
            app.get(Ledger.class).post("acct-3");

            server.kill();
            Throwable failure = catchThrowable(transactions::commit);

            assertThat(failure).isInstanceOf(RollbackException.class);
            assertThat(causes(failure)).contains("Could not confirm lock(s) 'ledger:acct-3' before commit");
            assertThat(logs.messages()).anyMatch(line -> line.contains("Could not release lock 'ledger:acct-3'"
                    + " after the transaction rolled back"));
        }
    }

    private static String causes(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            text.append(t).append('\n');
        }
        return text.toString();
    }

    @ApplicationScoped
    static class Ledger {
        @Locked("ledger:{account}")
        public void post(String account) {
        }
    }
}
