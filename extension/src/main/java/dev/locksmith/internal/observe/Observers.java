package dev.locksmith.internal.observe;

import java.util.List;

/**
 * Several observers as one: each is told everything, in order.
 */
public final class Observers implements LockObserver {
    private final List<LockObserver> observers;

    private Observers(List<LockObserver> observers) {
        this.observers = List.copyOf(observers);
    }

    /**
     * @return one observer that tells all of {@code observers}
     */
    public static LockObserver of(List<LockObserver> observers) {
        return observers.size() == 1 ? observers.get(0) : new Observers(observers);
    }

    @Override
    public WaitObservation waitStarted(LockLabel label, boolean traced) {
        List<WaitObservation> waits = observers.stream().map(observer -> observer.waitStarted(label, traced)).toList();
        return new WaitObservation() {
            @Override
            public void acquired(long fencingToken) {
                waits.forEach(wait -> wait.acquired(fencingToken));
            }

            @Override
            public void timedOut() {
                waits.forEach(WaitObservation::timedOut);
            }

            @Override
            public void skipped() {
                waits.forEach(WaitObservation::skipped);
            }

            @Override
            public void interrupted() {
                waits.forEach(WaitObservation::interrupted);
            }

            @Override
            public void failed(Throwable failure) {
                waits.forEach(wait -> wait.failed(failure));
            }
        };
    }

    @Override
    public HoldObservation holdStarted(LockLabel label, long fencingToken) {
        List<HoldObservation> holds = observers.stream().map(observer -> observer.holdStarted(label, fencingToken))
                .toList();
        return new HoldObservation() {
            @Override
            public void lost() {
                holds.forEach(HoldObservation::lost);
            }

            @Override
            public void ended() {
                holds.forEach(HoldObservation::ended);
            }
        };
    }

    @Override
    public void skipped(LockLabel label) {
        observers.forEach(observer -> observer.skipped(label));
    }

    @Override
    public void renewed(int holds) {
        observers.forEach(observer -> observer.renewed(holds));
    }

    @Override
    public void renewalFailed(int holds) {
        observers.forEach(observer -> observer.renewalFailed(holds));
    }

    @Override
    public void redisError(String kind) {
        observers.forEach(observer -> observer.redisError(kind));
    }

    @Override
    public void handedOver(LockLabel label) {
        observers.forEach(observer -> observer.handedOver(label));
    }

    @Override
    public void yielded(LockLabel label) {
        observers.forEach(observer -> observer.yielded(label));
    }

    @Override
    public void releaseFailed(LockLabel label, String errorKind) {
        observers.forEach(observer -> observer.releaseFailed(label, errorKind));
    }

    @Override
    public void fenceRefused(LockLabel label, long fencingToken, long databaseToken) {
        observers.forEach(observer -> observer.fenceRefused(label, fencingToken, databaseToken));
    }
}
