package dev.locksmith.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.locksmith.internal.observe.GuardedObserver;
import dev.locksmith.internal.observe.HoldObservation;
import dev.locksmith.internal.observe.LockLabel;
import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.internal.observe.Observers;
import dev.locksmith.internal.observe.WaitObservation;
import dev.locksmith.testing.LogCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A failing observer never breaks a lock: what it throws is logged once per method and the lock
 * goes on, while every call still reaches it.
 */
class GuardedObserverTest {
    private static final LockLabel STOCK = new LockLabel("stock:1", "reentrant", "stock:*");

    @Test
    void everyCallReachesTheObserverAndNothingItThrowsReachesTheLock() {
        Throwing observer = new Throwing(IllegalStateException::new, false);
        LockObserver guarded = GuardedObserver.guard(observer);

        assertThatCode(() -> everyCall(guarded)).doesNotThrowAnyException();

        assertThat(observer.calls).containsExactly("waitStarted stock:1 true", "acquired 7", "timedOut",
                "interrupted", "failed boom", "holdStarted stock:1 7", "lost", "ended", "renewed 3",
                "renewalFailed 2", "redisError NOPERM", "handedOver stock:1", "yielded stock:1",
                "releaseFailed stock:1 OOM");
    }

    @Test
    void anObserverThatCannotStartAnObservationLeavesTheLockWithoutOne() {
        Throwing observer = new Throwing(IllegalStateException::new, true);
        LockObserver guarded = GuardedObserver.guard(observer);

        WaitObservation wait = guarded.waitStarted(STOCK, false);
        HoldObservation hold = guarded.holdStarted(STOCK, 7);

        assertThat(wait).isSameAs(WaitObservation.NONE);
        assertThat(hold).isSameAs(HoldObservation.NONE);
    }

    @Test
    void aHalfPresentTelemetryApiIsContainedToo() {
        Throwing observer = new Throwing(() -> new NoClassDefFoundError("io/opentelemetry/api/common/Attributes"),
                true);
        LockObserver guarded = GuardedObserver.guard(observer);

        assertThatCode(() -> everyCall(guarded)).doesNotThrowAnyException();

        assertThat(observer.calls).containsExactly("waitStarted stock:1 true", "holdStarted stock:1 7", "renewed 3",
                "renewalFailed 2", "redisError NOPERM", "handedOver stock:1", "yielded stock:1",
                "releaseFailed stock:1 OOM");
    }

    @Test
    void eachFailingMethodIsLoggedOnceWithTheObserverAndTheMethod() {
        LockObserver guarded = GuardedObserver.guard(new Throwing(() -> new IllegalStateException("exporter down"),
                false));

        try (LogCapture log = LogCapture.start()) {
            for (int i = 0; i < 3; i++) {
                guarded.handedOver(STOCK);
                guarded.releaseFailed(STOCK, "transient");
                guarded.waitStarted(STOCK, false).acquired(i);
            }

            assertThat(log.messages()).hasSize(3);
            assertThat(log.messages()).allSatisfy(message -> assertThat(message)
                    .contains("WARNING", Throwing.class.getName(), "exporter down"));
            assertThat(log.messages()).anySatisfy(message -> assertThat(message).contains("in handedOver"));
            assertThat(log.messages()).anySatisfy(message -> assertThat(message).contains("in releaseFailed"));
            assertThat(log.messages()).anySatisfy(message -> assertThat(message)
                    .contains("in WaitObservation.acquired"));
        }
    }

    @Test
    void oneFailingObserverDoesNotKeepTheOthersFromBeingTold() {
        Throwing failing = new Throwing(IllegalStateException::new, false);
        Throwing next = new Throwing(IllegalStateException::new, false);
        LockObserver both = Observers.of(List.of(GuardedObserver.guard(failing), GuardedObserver.guard(next)));

        both.handedOver(STOCK);
        both.waitStarted(STOCK, true).timedOut();

        assertThat(failing.calls).containsExactly("handedOver stock:1", "waitStarted stock:1 true", "timedOut");
        assertThat(next.calls).containsExactly("handedOver stock:1", "waitStarted stock:1 true", "timedOut");
    }

    @Test
    void nothingAndWhatIsAlreadyGuardedAreReturnedAsTheyAre() {
        LockObserver guarded = GuardedObserver.guard(new Throwing(IllegalStateException::new, false));

        assertThat(GuardedObserver.guard(LockObserver.NONE)).isSameAs(LockObserver.NONE);
        assertThat(GuardedObserver.guard(guarded)).isSameAs(guarded);
    }

    private static void everyCall(LockObserver observer) {
        WaitObservation wait = observer.waitStarted(STOCK, true);
        wait.acquired(7);
        wait.timedOut();
        wait.interrupted();
        wait.failed(new IllegalStateException("boom"));
        HoldObservation hold = observer.holdStarted(STOCK, 7);
        hold.lost();
        hold.ended();
        observer.renewed(3);
        observer.renewalFailed(2);
        observer.redisError("NOPERM");
        observer.handedOver(STOCK);
        observer.yielded(STOCK);
        observer.releaseFailed(STOCK, "OOM");
    }

    /**
     * Records each call, then throws; its observations do the same.
     */
    private static final class Throwing implements LockObserver {
        final List<String> calls = new ArrayList<>();
        private final Supplier<? extends Throwable> failure;
        private final boolean startsThrow;

        Throwing(Supplier<? extends Throwable> failure, boolean startsThrow) {
            this.failure = failure;
            this.startsThrow = startsThrow;
        }

        @Override
        public WaitObservation waitStarted(LockLabel label, boolean traced) {
            call("waitStarted " + label.name() + " " + traced, startsThrow);
            return new WaitObservation() {
                @Override
                public void acquired(long fencingToken) {
                    call("acquired " + fencingToken, true);
                }

                @Override
                public void timedOut() {
                    call("timedOut", true);
                }

                @Override
                public void interrupted() {
                    call("interrupted", true);
                }

                @Override
                public void failed(Throwable cause) {
                    call("failed " + cause.getMessage(), true);
                }
            };
        }

        @Override
        public HoldObservation holdStarted(LockLabel label, long fencingToken) {
            call("holdStarted " + label.name() + " " + fencingToken, startsThrow);
            return new HoldObservation() {
                @Override
                public void lost() {
                    call("lost", true);
                }

                @Override
                public void ended() {
                    call("ended", true);
                }
            };
        }

        @Override
        public void renewed(int holds) {
            call("renewed " + holds, true);
        }

        @Override
        public void renewalFailed(int holds) {
            call("renewalFailed " + holds, true);
        }

        @Override
        public void redisError(String kind) {
            call("redisError " + kind, true);
        }

        @Override
        public void handedOver(LockLabel label) {
            call("handedOver " + label.name(), true);
        }

        @Override
        public void yielded(LockLabel label) {
            call("yielded " + label.name(), true);
        }

        @Override
        public void releaseFailed(LockLabel label, String errorKind) {
            call("releaseFailed " + label.name() + " " + errorKind, true);
        }

        private void call(String call, boolean fail) {
            calls.add(call);
            if (fail) {
                Throwable thrown = failure.get();
                if (thrown instanceof RuntimeException runtime) {
                    throw runtime;
                }
                throw (Error) thrown;
            }
        }
    }
}
