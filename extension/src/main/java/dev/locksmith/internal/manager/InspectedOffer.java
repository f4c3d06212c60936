package dev.locksmith.internal.manager;

import dev.locksmith.LockOffer;
import java.time.Duration;
import java.time.Instant;

/**
 * The {@code offer} line of the {@code inspect} script's answer, read in one place: a lock nobody
 * holds, reserved for one waiting process.
 *
 * @param mode            {@code exclusive} or {@code write}
 * @param managerId       the manager it is offered to
 * @param passedOn        the offer's number: how often it was passed on
 * @param since           when it was offered to that manager, or null when unknown
 * @param reservationLeft how long the reservation lasts at most
 */
record InspectedOffer(String mode, String managerId, int passedOn, Instant since, Duration reservationLeft) {
    /** How the line starts. */
    static final String PREFIX = "offer|";

    /**
     * @param line {@code offer|<mode>|<manager id>:|<offer number>|<offered ms>|<reservation left ms>},
     *             the offered ms empty when unknown
     */
    static InspectedOffer parse(String line) {
        String[] part = line.substring(PREFIX.length()).split("\\|", 5);
        String manager = part[1].endsWith(":") ? part[1].substring(0, part[1].length() - 1) : part[1];
        return new InspectedOffer(part[0], manager, Integer.parseInt(part[2]),
                part[3].isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(part[3])),
                Duration.ofMillis(Math.max(0, Long.parseLong(part[4]))));
    }

    /**
     * @param process how the manager offered to describes itself, or null
     */
    LockOffer describedAs(String process) {
        return new LockOffer(mode, managerId, process, since, reservationLeft, passedOn);
    }
}
