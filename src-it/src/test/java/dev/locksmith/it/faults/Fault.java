package dev.locksmith.it.faults;

/**
 * The faults {@link FaultRunIT} injects.
 */
enum Fault {
    CLIENT_KILL("CLIENT KILL of the clients' connections"),
    PAUSE_SHORTER_THAN_LEASE("SIGSTOP/SIGCONT of Redis, shorter than the lease"),
    PAUSE_LONGER_THAN_LEASE("SIGSTOP/SIGCONT of Redis, longer than the lease"),
    RESTART_KEEPING_DATA("Redis restart, data kept"),
    RESTART_LOSING_DATA("Redis restart, data lost"),
    KILL_HOLDER_JVM("kill -9 of a worker JVM"),
    STALL_NETWORK("stalled proxy between clients and Redis"),
    BUSY_WHILE_RELEASING("Redis BUSY (a script that runs until killed) while locks are released and handed over"),
    WRITES_PAUSED_WHILE_RELEASING("CLIENT PAUSE WRITE: releases and hand-overs time out, then run late");

    private final String description;

    Fault(String description) {
        this.description = description;
    }

    String description() {
        return description;
    }
}
