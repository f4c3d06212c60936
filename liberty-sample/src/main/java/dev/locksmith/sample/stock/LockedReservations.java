package dev.locksmith.sample.stock;

import dev.locksmith.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * Reservations through a CDI bean: {@code @Locked} takes the lock {@code stock:<sku>} and, since
 * the call runs in a JTA transaction, keeps it until that transaction has committed or rolled
 * back, so the next holder reads what this one wrote.
 */
@ApplicationScoped
public class LockedReservations {
    @Inject
    StockLedger ledger;

    /**
     * @return what was reserved
     * @throws dev.locksmith.LockTimeoutException if the lock was not free within {@code locksmith.wait-time}
     */
    @Locked("stock:{sku}")
    @Transactional
    public ReservationReceipt reserve(String sku, int quantity) {
        return ledger.reserve(sku, quantity, Via.CDI);
    }

    /**
     * @return what was reserved
     * @throws dev.locksmith.LockTimeoutException at once if another caller holds the lock
     */
    @Locked(value = "stock:{sku}", waitTime = 0)
    @Transactional
    public ReservationReceipt tryReserve(String sku, int quantity) {
        return ledger.reserve(sku, quantity, Via.CDI);
    }
}
