package dev.locksmith.sample.stock;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * Units of one SKU set aside for a customer, and which server and code path did it.
 */
@Entity
@Table(name = "reservation")
public class Reservation {
    @Id
    private String id;
    private String sku;
    private int quantity;
    @Column(name = "available_before")
    private int availableBefore;
    private String instance;
    private String via;
    @Column(name = "created_at")
    private LocalDateTime createdAt; // UTC

    protected Reservation() {
        // for JPA
    }

    Reservation(String sku, int quantity, int availableBefore, String instance, Via via) {
        this.id = UUID.randomUUID().toString();
        this.sku = sku;
        this.quantity = quantity;
        this.availableBefore = availableBefore;
        this.instance = instance;
        this.via = via.toString();
        this.createdAt = LocalDateTime.now(ZoneOffset.UTC);
    }

    String id() {
        return id;
    }
}
