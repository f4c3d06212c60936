package dev.locksmith.sample.quarkus;

import dev.locksmith.sample.stock.ReservationReceipt;
import dev.locksmith.sample.stock.StockLedger;
import dev.locksmith.sample.stock.Via;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * Reservations whose lock is not in the source: {@link LockedByTransformation} adds
 * {@code @Locked("stock:{sku}")} to {@link #reserve} when the application is built, as a build
 * compatible extension (or a Quarkus annotation transformer) may. The lock is the one
 * {@code LockedReservations} takes, so the two paths exclude each other across instances.
 */
@ApplicationScoped
public class TransformedReservations {
    @Inject
    StockLedger ledger;

    /**
     * @return what was reserved
     * @throws dev.locksmith.LockTimeoutException if the lock was not free within {@code locksmith.wait-time}
     */
    @Transactional
    public ReservationReceipt reserve(String sku, int quantity) {
        return ledger.reserve(sku, quantity, Via.CDI);
    }
}
