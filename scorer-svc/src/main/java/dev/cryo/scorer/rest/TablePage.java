package dev.cryo.scorer.rest;

import java.util.List;

/**
 * A page of the table listing.
 *
 * @param total tables matching the filters
 * @param limit the page size
 * @param offset rows skipped
 * @param tables this page
 */
public record TablePage(long total, int limit, int offset, List<TableSummary> tables) {
    public TablePage {
        tables = List.copyOf(tables);
    }
}
