package dev.locksmith.sample.stock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The stock and reservation tables, and the one read-modify-write that must never run twice at
 * once for the same SKU: {@link #reserve}. It takes no lock itself; each caller ({@link Via})
 * decides how it is serialized.
 */
@ApplicationScoped
public class StockLedger {
    @PersistenceContext(unitName = "stock")
    EntityManager entityManager;

    @Inject
    @ConfigProperty(name = "sample.instance", defaultValue = "sample")
    String instance;

    /**
     * Reserves {@code quantity} units: reads the level, checks it, writes the new level and the
     * reservation. Two callers that run this at once for the same SKU both read the same level,
     * and one update is lost.
     *
     * @return what was reserved and the level before and after
     * @throws UnknownSkuException if the SKU has no stock row
     * @throws OutOfStockException if fewer than {@code quantity} units are left
     */
    @Transactional(TxType.MANDATORY)
    public ReservationReceipt reserve(String sku, int quantity, Via via) {
        // A plain read, not SELECT ... FOR UPDATE: the distributed lock is what serializes this.
        StockItem item = entityManager.find(StockItem.class, sku);
        if (item == null) {
            throw new UnknownSkuException(sku);
        }
        int before = item.available();
        if (quantity > before) {
            throw new OutOfStockException(sku, quantity, before);
        }
        item.setAvailable(before - quantity);
        Reservation reservation = new Reservation(sku, quantity, before, instance, via);
        entityManager.persist(reservation);
        entityManager.flush();
        return new ReservationReceipt(reservation.id(), sku, quantity, before, before - quantity, instance,
                via.toString());
    }

    /**
     * Sets the level of a SKU, creating it if needed. Past reservations stay.
     *
     * @return the SKU's level now
     */
    @Transactional
    public StockLevel restock(String sku, int available) {
        StockItem item = entityManager.find(StockItem.class, sku);
        if (item == null) {
            entityManager.persist(new StockItem(sku, available));
        } else {
            item.setAvailable(available);
        }
        return new StockLevel(sku, available, reserved(sku));
    }

    /**
     * @return the SKU's level and how many units were reserved so far, or empty for an unknown SKU
     */
    @Transactional
    public Optional<StockLevel> find(String sku) {
        return Optional.ofNullable(entityManager.find(StockItem.class, sku))
                .map(item -> new StockLevel(sku, item.available(), reserved(sku)));
    }

    private long reserved(String sku) {
        Long sum = entityManager.createQuery(
                        "select sum(r.quantity) from Reservation r where r.sku = :sku", Long.class)
                .setParameter("sku", sku)
                .getSingleResult();
        return sum == null ? 0 : sum;
    }
}
