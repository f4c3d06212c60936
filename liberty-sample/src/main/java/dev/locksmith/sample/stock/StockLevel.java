package dev.locksmith.sample.stock;

/**
 * A SKU's stock as the database has it now.
 *
 * @param sku       the SKU
 * @param available units not reserved yet
 * @param reserved  units reserved so far, summed over every reservation
 */
public record StockLevel(String sku, int available, long reserved) {
}
