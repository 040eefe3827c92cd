package dev.cryo.enginesql.trino;

import dev.cryo.enginesql.CatalogNames;

import static java.util.Objects.requireNonNull;

/**
 * How Cryo renders SQL for one Trino cluster.
 *
 * @param catalogNames Trino's names of Cryo's catalogs
 * @param predicateForm how optimize addresses partitions
 */
public record TrinoSettings(CatalogNames catalogNames, PredicateForm predicateForm) {

    public static final TrinoSettings DEFAULT = new TrinoSettings(CatalogNames.SAME, PredicateForm.COLUMNS_WHERE_EXACT);

    /**
     * Trino's optimize accepts only a WHERE clause that its Iceberg connector enforces exactly,
     * judged against every partition spec the table ever had.
     */
    public enum PredicateForm {
        /**
         * Column predicates (identity values, temporal ranges) where the chunk is one domain per
         * column, the {@code "$partition"} path otherwise (bucket, truncate, evolved specs, several
         * multi-field partitions).
         */
        COLUMNS_WHERE_EXACT,
        /**
         * Always the {@code "$partition"} path: for tables where a coarser older spec makes Trino
         * refuse a temporal range ("Unexpected FilterNode").
         */
        PARTITION_PATHS
    }

    public TrinoSettings {
        requireNonNull(catalogNames, "catalogNames is null");
        requireNonNull(predicateForm, "predicateForm is null");
    }
}
