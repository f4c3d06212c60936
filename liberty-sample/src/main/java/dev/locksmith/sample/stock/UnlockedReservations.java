package dev.locksmith.sample.stock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * Reservations with no lock at all, taken for every request when {@code sample.locking.enabled}
 * is false: concurrent reservations of one SKU then read the same level and oversell it. It is
 * there to show, and to let the integration tests prove, what the lock prevents.
 */
@ApplicationScoped
public class UnlockedReservations {
    @Inject
    StockLedger ledger;

    /**
     * @return what was reserved
     */
    @Transactional
    public ReservationReceipt reserve(String sku, int quantity) {
        return ledger.reserve(sku, quantity, Via.UNLOCKED);
    }
}
