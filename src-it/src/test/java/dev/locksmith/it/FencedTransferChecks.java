package dev.locksmith.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockInfo;
import dev.locksmith.testing.Await;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sample bank's transfers ({@code /api/bank}) on two servers, with a holder that pauses past
 * its lease: the first server is stopped (SIGSTOP) while it holds the bank's lock, at a point the
 * test chose from the database ({@link DatabaseGates}), until Redis has let the lock go; the second
 * server then transfers in the same bank, and the first goes on (SIGCONT). Each schedule runs
 * fenced ({@code @Locked(fenced = true)}) and not, and shows what fencing changes at that point:
 * <ul>
 *   <li>a pause in the database's commit, after Locksmith's check before commit: without the fence
 *       an update is lost; with it the second server waits at its fence check and reads the first
 *       one's commit;</li>
 *   <li>a pause between the two writes: the check before commit rolls the first server back either
 *       way; with the fence the second server waits at its check until then;</li>
 *   <li>a pause before the fence check: the second server checks in first, and the first is refused
 *       ({@code FENCED_WRITE_REFUSED}) before it writes anything; without the fence it writes, and
 *       the check before commit rolls it back.</li>
 * </ul>
 * The part of {@link SampleChecks} about fenced writes, which every runtime's class runs on the
 * servers it already has. Transfers move money between accounts, so the bank's total is the same
 * before and after, unless an update was lost.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class FencedTransferChecks {
    /** How long anything the servers do at once may take, a lock's wait included. */
    static final Duration SOON = Duration.ofSeconds(30);
    private static final long OPENING_BALANCE = 100;

    /**
     * @return the cluster the runtime's class registered
     */
    abstract SampleCluster cluster();

    /**
     * The first server moves 10 from a to b and stops in its database commit, after Locksmith
     * confirmed the lock; stopped past its lease, it commits once the second server, which moves 5
     * from b to c, has taken the lock, and learns only at its release that the lock was gone
     * ({@code LOCK_LOST}). Without the fence, the second server read b from before that commit and
     * overwrites it: 10 are lost. With it, the second server waits at its check until the first
     * committed, and reads b = 110.
     */
    @ParameterizedTest(name = "fenced = {0}")
    @ValueSource(booleans = {true, false})
    @Order(9)
    void aHolderPausedInItsCommitLosesAnUpdateOnlyWithoutTheFence(boolean fenced) throws Exception {
        String bank = openBank(DatabaseGates.SLOW_COMMIT + "bank-");

        // Fenced, the second waits at its check, before it read anything; not fenced, at its write of b.
        Replies replies = firstPausedPastItsLease(bank, fenced, () -> DatabaseGates.holdCommit(database(), bank), false);

        Reply firstReply = replies.first();
        Reply secondReply = replies.second();
        Map<String, Long> balances = database().balances(bank);
        report("a pause in the commit", fenced, balances, firstReply, secondReply);
        // It committed, and found its lock gone only when it released it: too late to undo anything.
        assertThat(firstReply.status()).as("%s", firstReply).isEqualTo(409);
        assertThat(firstReply.code()).isEqualTo("LOCK_LOST");
        assertThat(firstReply.string("message")).contains("before it was released");
        assertThat(secondReply.status()).as("%s", secondReply).isEqualTo(201);
        if (fenced) {
            assertThat(secondReply.integer("fromBefore")).as("b as the first transfer committed it").isEqualTo(110);
            assertThat(balances).containsExactlyInAnyOrderEntriesOf(Map.of("a", 90L, "b", 105L, "c", 105L));
        } else {
            assertThat(secondReply.integer("fromBefore")).as("b from before the first transfer's commit")
                    .isEqualTo(100);
            assertThat(balances).as("the first transfer's credit of b is lost")
                    .containsExactlyInAnyOrderEntriesOf(Map.of("a", 90L, "b", 95L, "c", 105L));
        }
        assertNothingLeft(bank);
    }

    /**
     * The first server moves 10 from a to b and stops at its write of b, which the test holds,
     * with a written; stopped past its lease, it goes on after the second server, which moves 5
     * from b to c, has taken the lock. Locksmith's check before commit finds the lock lost and
     * rolls the first transfer back, fenced or not; with the fence the second server waited at its
     * check, without it at its write of b.
     */
    @ParameterizedTest(name = "fenced = {0}")
    @ValueSource(booleans = {true, false})
    @Order(9)
    void aHolderPausedBetweenItsWritesIsRolledBack(boolean fenced) throws Exception {
        String bank = openBank("between-writes-");

        Replies replies = firstPausedPastItsLease(bank, fenced, () -> DatabaseGates.holdAccount(database(), bank, "b"),
                false);

        Reply firstReply = replies.first();
        Reply secondReply = replies.second();
        Map<String, Long> balances = database().balances(bank);
        report("a pause between the writes", fenced, balances, firstReply, secondReply);
        assertThat(firstReply.status()).as("%s", firstReply).isEqualTo(409);
        assertThat(firstReply.code()).isEqualTo("ROLLED_BACK");
        assertThat(firstReply.string("message")).contains("lost before");
        assertThat(secondReply.status()).as("%s", secondReply).isEqualTo(201);
        assertThat(secondReply.integer("fromBefore")).isEqualTo(100);
        assertThat(balances).containsExactlyInAnyOrderEntriesOf(Map.of("a", 100L, "b", 95L, "c", 105L));
        assertNothingLeft(bank);
    }

    /**
     * The first server, holding the lock, stops before its first statement on the gated table:
     * fenced, its check of the fence table; not fenced, its write of a, after its reads. Stopped
     * past its lease, it goes on once the second server, which moves 5 from b to c, has committed.
     * Fenced, the fence table has the second server's larger token: the first is refused before it
     * writes anything. Not fenced, it writes over the second transfer's b, and Locksmith's check
     * before commit rolls it back.
     */
    @ParameterizedTest(name = "fenced = {0}")
    @ValueSource(booleans = {true, false})
    @Order(9)
    void aHolderPausedBeforeItsCheckIsRefusedByTheFence(boolean fenced) throws Exception {
        String bank = openBank("before-check-");

        Replies replies = firstPausedPastItsLease(bank, fenced,
                () -> DatabaseGates.holdFirstUpdate(database(), fenced ? "locksmith_fence" : "bank_account"), true);

        Reply firstReply = replies.first();
        Reply secondReply = replies.second();
        Map<String, Long> balances = database().balances(bank);
        report("a pause before the check", fenced, balances, firstReply, secondReply);
        assertThat(secondReply.status()).as("the second server overtook the first: %s", secondReply).isEqualTo(201);
        assertThat(secondReply.integer("fromBefore")).isEqualTo(100);
        assertThat(firstReply.status()).as("%s", firstReply).isEqualTo(409);
        if (fenced) {
            assertThat(firstReply.code()).isEqualTo("FENCED_WRITE_REFUSED");
            assertThat(firstReply.mappedBy()).as("reached the application's mapper of LockLostException")
                    .isEqualTo("LockLostResponses");
            assertThat(firstReply.string("message")).contains("Fenced write refused for lock '", bank);
        } else {
            assertThat(firstReply.code()).isEqualTo("ROLLED_BACK");
            assertThat(firstReply.string("message")).contains("lost before");
        }
        assertThat(balances).containsExactlyInAnyOrderEntriesOf(Map.of("a", 100L, "b", 95L, "c", 105L));
        assertNothingLeft(bank);
    }

    /**
     * The schedule of {@link #aHolderPausedBeforeItsCheckIsRefusedByTheFence}, with the first
     * transfer made by a stateless session bean ({@code ?teller=ejb}) in the container's own
     * transaction: the fence refuses it the same way. A runtime without Enterprise Beans (Quarkus)
     * refuses {@code ?teller=ejb} with 400 and moves nothing.
     */
    @Test
    @Order(9)
    void aSessionBeanHolderPausedBeforeItsCheckIsRefusedByTheFence() throws Exception {
        String bank = openBank("ejb-before-check-");
        if (!cluster().runtime().lockedPaths().contains(Via.EJB)) {
            Reply refused = first().sessionBeanTransferAsync(bank, "a", "b", 10).get(SOON.toSeconds(), TimeUnit.SECONDS);
            assertThat(refused.status()).as("no Enterprise Beans here: %s", refused).isEqualTo(400);
            assertThat(refused.string("message")).contains("teller=ejb", "Enterprise Beans");
            assertThat(database().balances(bank)).containsExactlyInAnyOrderEntriesOf(
                    Map.of("a", 100L, "b", 100L, "c", 100L));
            return;
        }

        Replies replies = firstPausedPastItsLease(bank, true,
                () -> DatabaseGates.holdFirstUpdate(database(), "locksmith_fence"), true,
                () -> first().sessionBeanTransferAsync(bank, "a", "b", 10));

        Reply firstReply = replies.first();
        Reply secondReply = replies.second();
        Map<String, Long> balances = database().balances(bank);
        report("a pause before the check, session bean", true, balances, firstReply, secondReply);
        assertThat(secondReply.status()).as("the second server overtook the first: %s", secondReply).isEqualTo(201);
        assertThat(firstReply.status()).as("%s", firstReply).isEqualTo(409);
        assertThat(firstReply.code()).isEqualTo("FENCED_WRITE_REFUSED");
        assertThat(firstReply.string("message")).contains("Fenced write refused for lock '", bank);
        assertThat(balances).containsExactlyInAnyOrderEntriesOf(Map.of("a", 100L, "b", 95L, "c", 105L));
        assertNothingLeft(bank);
    }

    /**
     * @return a new bank with accounts a, b and c of 100 each, opened on the first server under
     *         the bank's fenced lock, so its fence row exists before a schedule starts
     */
    private String openBank(String prefix) {
        String bank = SampleCluster.freshSku(prefix);
        for (String account : new String[] {"a", "b", "c"}) {
            Reply opened = first().openAccount(bank, account, OPENING_BALANCE);
            assertThat(opened.status()).as("opening %s of %s: %s", account, bank, opened).isEqualTo(200);
        }
        return bank;
    }

    /**
     * The schedule every check runs: the first server moves 10 from a to b until it stops at the
     * gate, holding the bank's lock; it is stopped (SIGSTOP) until Redis has let the lock go; the
     * second server moves 5 from b to c, and either overtakes the first (its transfer ends) or
     * waits in the database (a second waiting session); then the first server goes on (SIGCONT)
     * and the gate opens.
     *
     * @param gate            closes the gate the first server's transfer stops at
     * @param secondOvertakes whether the second transfer ends while the first is stopped, or waits for it
     * @return both servers' answers
     */
    private Replies firstPausedPastItsLease(String bank, boolean fenced, Supplier<DatabaseGates.Gate> gate,
            boolean secondOvertakes) throws Exception {
        return firstPausedPastItsLease(bank, fenced, gate, secondOvertakes,
                () -> first().transferAsync(bank, "a", "b", 10, fenced));
    }

    private Replies firstPausedPastItsLease(String bank, boolean fenced, Supplier<DatabaseGates.Gate> gate,
            boolean secondOvertakes, Supplier<CompletableFuture<Reply>> firstTransferOfTen) throws Exception {
        CompletableFuture<Reply> firstTransfer;
        CompletableFuture<Reply> secondTransfer;
        DatabaseGates.Gate closed = gate.get();
        try {
            firstTransfer = firstTransferOfTen.get();
            DatabaseGates.awaitWaiting(database(), 1, SOON);
            assertThat(lockOf(bank).isLocked()).as("the first server holds bank:%s", bank).isTrue();
            SampleServer.Frozen paused = cluster().process(0).freeze();
            try {
                Duration waited = LockWatch.awaitFree(lockOf(bank), SampleCluster.LEASE.plusSeconds(10));
                System.out.printf("FENCING %s: the stopped holder's lease of bank:%s ran out %d ms after SIGSTOP%n",
                        cluster().runtime(), bank, waited.toMillis());
                secondTransfer = second().transferAsync(bank, "b", "c", 5, fenced);
                if (secondOvertakes) {
                    secondTransfer.get(SOON.toSeconds(), TimeUnit.SECONDS);
                } else {
                    DatabaseGates.awaitWaiting(database(), 2, SOON);
                }
            } finally {
                paused.close();
            }
        } finally {
            closed.close();
        }
        return new Replies(firstTransfer.get(SOON.toSeconds(), TimeUnit.SECONDS),
                secondTransfer.get(SOON.toSeconds(), TimeUnit.SECONDS));
    }

    /**
     * @param first  the first server's answer
     * @param second the second server's answer
     */
    private record Replies(Reply first, Reply second) {
    }

    private void report(String schedule, boolean fenced, Map<String, Long> balances, Reply first, Reply second) {
        long total = balances.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf("FENCING %s, %s, fenced=%s: balances %s, total %d of %d; first server %d %s, second %d%n",
                cluster().runtime(), schedule, fenced, balances, total, 3 * OPENING_BALANCE, first.status(),
                first.code() == null ? "" : first.code(), second.status());
    }

    /**
     * Nothing of the bank's lock is left in Redis (no holder, no waiter, no standing offer), and
     * no server logged a system exception.
     */
    private void assertNothingLeft(String bank) {
        String name = "bank:" + bank;
        Await.until("nothing left of " + name + " in Redis", SOON, () -> {
            LockInfo info = cluster().locks().describe(name);
            return info.holders().isEmpty() && info.waitingInQueue() == 0 && info.waitingProcesses() == 0
                    && info.offer().isEmpty();
        });
        cluster().noSystemExceptionLogged();
    }

    private DistributedLock lockOf(String bank) {
        return cluster().locks().getLock("bank:" + bank);
    }

    SampleClient first() {
        return cluster().server(0);
    }

    SampleClient second() {
        return cluster().server(1);
    }

    SampleDatabase database() {
        return cluster().postgres();
    }
}
