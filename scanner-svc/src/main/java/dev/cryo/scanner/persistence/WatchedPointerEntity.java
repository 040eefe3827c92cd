package dev.cryo.scanner.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A row of {@code watched_pointer}: the metadata location the watcher last saw for a table. */
@Entity
@Table(name = "watched_pointer")
public class WatchedPointerEntity extends PanacheEntityBase {

    @Id
    @Column(name = "table_id")
    public String tableId;

    @Column(name = "catalog", nullable = false)
    public String catalog;

    @Column(name = "metadata_location", nullable = false)
    public String metadataLocation;
}
