package dev.cryo.planner.persistence;

import dev.cryo.platform.persistence.TableScanKey;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import java.time.Instant;

/** A row of {@code scan}: a TableScanned kept for planning, identified within its table. */
@Entity
@Table(name = "scan")
@IdClass(TableScanKey.class)
public class ScanEntity extends PanacheEntityBase {

    @Id
    @Column(name = "table_id")
    public String tableId;

    @Id
    @Column(name = "scan_id")
    public String scanId;

    @Column(name = "scanned_at", nullable = false)
    public Instant scannedAt;

    /** The TableScanned's JSON. */
    @Column(name = "payload", nullable = false)
    public String payload;
}
