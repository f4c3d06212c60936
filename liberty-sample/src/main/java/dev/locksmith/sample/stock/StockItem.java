package dev.locksmith.sample.stock;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * How many units of one SKU are still available.
 *
 * <p>No {@code @Version} column, on purpose: here the distributed lock, not optimistic locking, is
 * what keeps two reservations from reading the same level and overwriting each other. With
 * locking turned off ({@code sample.locking.enabled=false}) the lost updates become visible.
 */
@Entity
@Table(name = "stock")
public class StockItem {
    @Id
    private String sku;
    private int available;

    protected StockItem() {
        // for JPA
    }

    StockItem(String sku, int available) {
        this.sku = sku;
        this.available = available;
    }

    String sku() {
        return sku;
    }

    int available() {
        return available;
    }

    void setAvailable(int available) {
        this.available = available;
    }
}
