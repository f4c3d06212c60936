package dev.locksmith.internal.lock.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.internal.lock.local.HandOver.State;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The hand-over protocol refuses every step it does not have, and the line reads how many
 * hand-overs are under way off its waiters' states.
 */
class HandOverStatesTest {
    private static final long PATIENCE_NANOS = 1_000_000_000L;

    private final ReentrantLock mutex = new ReentrantLock();
    private final WaiterLine line = new WaiterLine(mutex, PATIENCE_NANOS);

    @BeforeEach
    void holdTheMutex() {
        mutex.lock(); // as LocalContention does around every step of the line
    }

    @AfterEach
    void releaseTheMutex() {
        mutex.unlock();
    }

    @Test
    void eachStateAllowsOnlyTheStepsOfTheProtocol() {
        assertThat(allowedAfter(State.WAITING)).containsExactly(State.PARKED);
        assertThat(allowedAfter(State.PARKED)).containsExactlyInAnyOrder(State.WAITING, State.CLAIMED);
        assertThat(allowedAfter(State.CLAIMED)).containsExactlyInAnyOrder(State.HANDED, State.FELL_THROUGH);
        assertThat(allowedAfter(State.HANDED)).containsExactlyInAnyOrder(State.TAKING, State.WAITING);
        assertThat(allowedAfter(State.TAKING)).containsExactly(State.WAITING);
        assertThat(allowedAfter(State.FELL_THROUGH)).containsExactly(State.WAITING);
    }

    @Test
    void anIllegalStepIsRefusedAndNamesBothStates() {
        HandOver waiter = join();

        assertThatThrownBy(() -> waiter.handed(7, 0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("from WAITING to HANDED").hasMessageContaining("worker");
        assertThat(waiter.state()).as("a refused step changes nothing").isEqualTo(State.WAITING);
    }

    @Test
    void aHandOverIsUnderWayFromItsClaimUntilItsWaiterRecordedTheHold() {
        HandOver waiter = join();
        waiter.moveTo(State.PARKED);
        assertThat(line.handOversUnderWay()).isZero();

        assertThat(line.claimNext(0)).isSameAs(waiter);
        assertThat(line.handOversUnderWay()).as("claimed").isEqualTo(1);
        line.handed(waiter, 42, 0);
        assertThat(line.handOversUnderWay()).as("handed, not yet collected").isEqualTo(1);
        assertThat(line.collect(waiter)).isEqualTo(Turn.HANDED);
        assertThat(line.handOversUnderWay()).as("collected, hold not yet recorded").isEqualTo(1);
        line.taken(waiter);

        assertThat(line.handOversUnderWay()).isZero();
        assertThat(waiter.state()).isEqualTo(State.WAITING);
    }

    @Test
    void aFallenThroughHandOverEndsWhenItsWaiterSeesIt() {
        HandOver first = join();
        HandOver second = join();
        first.moveTo(State.PARKED);
        assertThat(line.claimNext(0)).isSameAs(first);
        line.fellThrough(first, 0, true);

        assertThat(line.mayAsk(first)).as("back at the front, but its hand-over is not yet seen").isFalse();
        assertThat(line.collect(first)).isEqualTo(Turn.ASK);
        assertThat(line.mayAsk(first)).isTrue();
        assertThat(line.mayAsk(second)).isFalse();
        assertThat(first.uncertainSince()).isEqualTo(0);
    }

    @Test
    void aWaiterThatLeavesHandedTheLockGivesItBack() {
        HandOver waiter = join();
        waiter.moveTo(State.PARKED);
        line.claimNext(0);
        line.handed(waiter, 42, 0);

        assertThat(line.leave(waiter)).as("uncollected: the caller gives the hold back").isTrue();
        assertThat(line.handOversUnderWay()).isZero();
        assertThat(line.isEmpty()).isTrue();
    }

    private HandOver join() {
        return line.join("manager-a:1", 30_000, "worker", null);
    }

    private static Set<State> allowedAfter(State from) {
        Set<State> allowed = EnumSet.noneOf(State.class);
        for (State next : State.values()) {
            if (from.mayFollow(next)) {
                allowed.add(next);
            }
        }
        return allowed;
    }
}
