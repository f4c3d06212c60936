package dev.locksmith.sample.stock;

import jakarta.ejb.ApplicationException;

/**
 * A reservation named a SKU that has no stock. Answered as HTTP 404 {@code UNKNOWN_SKU}.
 */
@ApplicationException(rollback = true)
public class UnknownSkuException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnknownSkuException(String sku) {
        super("No stock for SKU '" + sku + "'; create it first with PUT /api/stock/" + sku + " {\"available\": 10}");
    }
}
