package dev.cryo.scanner.rest;

/**
 * A request to scan one table now.
 *
 * @param table the table id, {@code catalog.namespace.table}
 */
public record ScanRequest(String table) {
}
