package dev.cryo.contracts.event;

/**
 * One partition field's value, as data: each engine renders its own SQL from it. For temporal
 * and truncate transforms the planner also gives the half-open source-column range that covers
 * exactly the whole partition ({@code lowerInclusive <= column < upperExclusive}), in the
 * source type's ISO text form ({@code 2024-01-31T00:00:00Z} for timestamptz, {@code 2024-01-31T00:00:00}
 * for timestamp, {@code 2024-01-31} for date, the prefix bounds for truncate).
 *
 * @param field the partition field name
 * @param sourceColumn the source column
 * @param sourceType the source column's Iceberg type
 * @param transform the Iceberg transform ({@code identity}, {@code day}, {@code bucket[16]}, …)
 * @param value the partition value in Iceberg's internal representation (optional: null partition value)
 * @param lowerInclusive lower bound of the source range (optional)
 * @param upperExclusive upper bound of the source range (optional)
 * @param humanValue the value as people read it ({@code 2024-01-31}, {@code bucket 3 of 16}) (optional)
 */
public record FieldPredicate(
        String field,
        String sourceColumn,
        String sourceType,
        String transform,
        String value,
        String lowerInclusive,
        String upperExclusive,
        String humanValue) {

    public FieldPredicate {
        Require.nonBlank(field, "field");
        Require.nonBlank(sourceColumn, "sourceColumn");
        Require.nonBlank(sourceType, "sourceType");
        Require.nonBlank(transform, "transform");
        if ((lowerInclusive == null) != (upperExclusive == null)) {
            throw new IllegalArgumentException("a range needs both bounds: " + lowerInclusive + ", " + upperExclusive);
        }
    }

    /** True when this field is a null partition value. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isNullValue() {
        return value == null;
    }
}
