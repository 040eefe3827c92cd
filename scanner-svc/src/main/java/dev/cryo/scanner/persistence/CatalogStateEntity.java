package dev.cryo.scanner.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** A row of {@code catalog_state}: a watched catalog's last poll, and its last error kept after it recovers. */
@Entity
@Table(name = "catalog_state")
public class CatalogStateEntity extends PanacheEntityBase {

    @Id
    @Column(name = "catalog")
    public String catalog;

    @Column(name = "reachable", nullable = false)
    public boolean reachable;

    /** The tables the last successful poll listed (a failed poll keeps the count before it). */
    @Column(name = "tables")
    public Integer tables;

    @Column(name = "last_poll_at")
    public Instant lastPollAt;

    /** Cleared by a successful poll; {@link #lastErrorAt} stays so an operator sees when it last failed. */
    @Column(name = "last_error")
    public String lastError;

    @Column(name = "last_error_at")
    public Instant lastErrorAt;

    CatalogStatus toStatus() {
        return new CatalogStatus(catalog, reachable, tables, lastPollAt, lastError, lastErrorAt);
    }
}
