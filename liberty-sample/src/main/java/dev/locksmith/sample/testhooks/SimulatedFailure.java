package dev.locksmith.sample.testhooks;

/**
 * Thrown where {@code X-Test-Fail} asked for it, to roll back a reservation that has already
 * written. Answered as HTTP 500 {@code SIMULATED_FAILURE}.
 */
public class SimulatedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SimulatedFailure(String id, Point point) {
        super("Request " + id + " failed at " + point + " as its X-Test-Fail header asked");
    }
}
