package dev.locksmith.faults;

import dev.locksmith.testing.FaultProxy;
import dev.locksmith.testing.FaultProxy.Fault;
import java.time.Duration;

/**
 * The failures the harness makes happen at each position: five error replies Redis really sends,
 * a reply that comes only after the client's command timeout, the connection dropped before or
 * after the command reached Redis, and a lost pub/sub message.
 */
enum FaultKind {
    BUSY(FaultProxy.BUSY),
    OOM(FaultProxy.OOM),
    READONLY(FaultProxy.READONLY),
    LOADING(FaultProxy.LOADING),
    NOSCRIPT(FaultProxy.NOSCRIPT),
    NO_ANSWER(null),
    DROP_BEFORE(null),
    DROP_AFTER(null),
    LOSE_PUSH(null);

    private final String errorLine;

    FaultKind(String errorLine) {
        this.errorLine = errorLine;
    }

    /**
     * @return true for the kind that picks a pub/sub message, false for those that pick a command
     */
    boolean picksPush() {
        return this == LOSE_PUSH;
    }

    /**
     * @param signature      the command's or push's signature
     * @param occurrence     which one, from 1
     * @param commandTimeout the clients' command timeout: a held reply comes twice as late
     * @return the proxy's fault
     */
    Fault at(String signature, int occurrence, Duration commandTimeout) {
        return switch (this) {
            case BUSY, OOM, READONLY, LOADING, NOSCRIPT -> Fault.errorReply(signature, occurrence, errorLine);
            case NO_ANSWER -> Fault.noAnswer(signature, occurrence, commandTimeout.multipliedBy(2));
            case DROP_BEFORE -> Fault.dropBefore(signature, occurrence);
            case DROP_AFTER -> Fault.dropAfter(signature, occurrence);
            case LOSE_PUSH -> Fault.losePush(signature, occurrence);
        };
    }
}
