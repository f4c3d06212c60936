package dev.locksmith.sample.stock;

import dev.locksmith.LockManager;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Reservations with the lock taken by hand: {@code LockManager.callWithLock}, inside a JTA
 * transaction, so the release waits for the commit just as with {@code @Locked}.
 */
@ApplicationScoped
public class ManagedReservations {
    @Inject
    LockManager locks;

    @Inject
    StockLedger ledger;

    @Inject
    @ConfigProperty(name = "sample.manager.wait-time", defaultValue = "PT10S")
    Duration waitTime;

    /**
     * @return what was reserved
     * @throws dev.locksmith.LockTimeoutException if the lock was not free within {@code sample.manager.wait-time}
     */
    @Transactional
    public ReservationReceipt reserve(String sku, int quantity) {
        return reserveWaiting(sku, quantity, waitTime);
    }

    /**
     * @return what was reserved
     * @throws dev.locksmith.LockTimeoutException at once if another caller holds the lock
     */
    @Transactional
    public ReservationReceipt tryReserve(String sku, int quantity) {
        return reserveWaiting(sku, quantity, Duration.ZERO);
    }

    private ReservationReceipt reserveWaiting(String sku, int quantity, Duration wait) {
        try {
            return locks.callWithLock("stock:" + sku, wait,
                    () -> ledger.reserve(sku, quantity, Via.MANAGER));
        } catch (RuntimeException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for lock stock:" + sku, e);
        } catch (Exception e) {
            // The ledger throws only unchecked exceptions; anything else is a bug worth seeing.
            throw new IllegalStateException("Reserving " + sku + " failed", e);
        }
    }
}
