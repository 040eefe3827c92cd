package dev.cryo.contracts.event;

import static java.util.Objects.requireNonNull;

/**
 * One field of a partition spec.
 *
 * @param name the partition field name (e.g. {@code ts_day})
 * @param sourceColumn the source column's name in the current schema
 * @param sourceId the source column's field id
 * @param sourceType the source column's Iceberg type ({@code timestamptz}, {@code date}, {@code string}, {@code decimal(10, 2)}, …)
 * @param transform the Iceberg transform as Iceberg prints it: {@code identity}, {@code year}, {@code month},
 *                  {@code day}, {@code hour}, {@code bucket[16]}, {@code truncate[4]}, {@code void}
 */
public record PartitionFieldInfo(String name, String sourceColumn, int sourceId, String sourceType, String transform) {
    public PartitionFieldInfo {
        Require.nonBlank(name, "name");
        Require.nonBlank(sourceColumn, "sourceColumn");
        requireNonNull(sourceType, "sourceType is null");
        Require.nonBlank(transform, "transform");
    }
}
