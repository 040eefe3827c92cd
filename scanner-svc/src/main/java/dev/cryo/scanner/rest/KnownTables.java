package dev.cryo.scanner.rest;

import dev.cryo.contracts.TableId;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.platform.error.CryoException;
import dev.cryo.scanner.ScannerErrorCode;
import jakarta.enterprise.context.ApplicationScoped;

/** Table ids from requests, checked against the configured catalogs. */
@ApplicationScoped
public class KnownTables {

    private final CatalogRegistry catalogs;

    KnownTables(CatalogRegistry catalogs) {
        this.catalogs = catalogs;
    }

    /** A well-formed id of a configured catalog. */
    public TableId parse(String tableId) {
        TableId table;
        try {
            table = TableId.parse(tableId);
        } catch (IllegalArgumentException e) {
            throw CryoException.invalid(e.getMessage());
        }
        if (!catalogs.names().contains(table.catalog())) {
            throw new CryoException(ScannerErrorCode.UNKNOWN_CATALOG, "Cannot find table " + table + ": catalog '"
                    + table.catalog() + "' is not configured; configured catalogs are " + catalogs.names());
        }
        return table;
    }

    /** A table that exists in its catalog. */
    public TableId existing(String tableId) {
        TableId table = parse(tableId);
        if (!catalogs.catalog(table.catalog()).tableExists(CatalogRegistry.identifier(table))) {
            throw new CryoException(ScannerErrorCode.TABLE_NOT_FOUND, "Cannot find table " + table
                    + ": catalog " + table.catalog() + " has no such table");
        }
        return table;
    }
}
