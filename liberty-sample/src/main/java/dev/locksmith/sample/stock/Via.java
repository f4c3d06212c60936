package dev.locksmith.sample.stock;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which code path made a reservation: the query parameter {@code via} of
 * {@code POST /api/stock/{sku}/reservations}.
 */
public enum Via {
    /** {@link LockedReservations}: a CDI bean, {@code @Locked} with {@code @Transactional}. */
    CDI,
    /** {@link ReservationDesk}: a {@code @Stateless} EJB, {@code @Locked} with container-managed transactions. */
    EJB,
    /** {@link SingletonReservations}: a {@code @Singleton} EJB with {@code READ} concurrency, {@code @Locked}. */
    SINGLETON,
    /** {@link ManagedReservations}: {@code @Inject LockManager} and {@code callWithLock}. */
    MANAGER,
    /** {@link UnlockedReservations}: no lock at all; taken whenever {@code sample.locking.enabled=false}. */
    UNLOCKED;

    /**
     * @param value {@code cdi}, {@code ejb}, {@code singleton} or {@code manager}, in any case
     * @return the path of that name
     * @throws IllegalArgumentException naming the accepted values
     */
    public static Via fromString(String value) {
        for (Via via : values()) {
            if (via != UNLOCKED && via.name().equalsIgnoreCase(value)) {
                return via;
            }
        }
        throw new IllegalArgumentException("via=" + value + " is not a reservation path; use one of "
                + Arrays.stream(values()).filter(v -> v != UNLOCKED)
                        .map(v -> v.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
