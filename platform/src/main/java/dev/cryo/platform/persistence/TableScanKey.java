package dev.cryo.platform.persistence;

import java.io.Serializable;
import java.util.Objects;

/**
 * The key of an entity stored per table and scan ({@code @IdClass}; the entity names its two {@code @Id}
 * fields {@code tableId} and {@code scanId}). Scan ids are meant to be UUIDs, but a producer reusing one
 * for another table must not make that table's scan look like one seen before.
 */
public class TableScanKey implements Serializable {

    public String tableId;
    public String scanId;

    /** For Hibernate. */
    public TableScanKey() {
    }

    public TableScanKey(String tableId, String scanId) {
        this.tableId = tableId;
        this.scanId = scanId;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TableScanKey key && Objects.equals(key.tableId, tableId) && Objects.equals(key.scanId, scanId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tableId, scanId);
    }
}
