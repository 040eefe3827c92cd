package dev.cryo.enginesql.expression;

import dev.cryo.contracts.Transform;
import dev.cryo.contracts.event.FieldPredicate;

import static java.util.Objects.requireNonNull;

/**
 * One field of a planned partition, with its transform and source type parsed.
 *
 * @param predicate the field as the plan gives it
 * @param transform its transform
 * @param sourceType its source column's type
 */
public record PartitionField(FieldPredicate predicate, Transform transform, SourceType sourceType) {

    public PartitionField {
        requireNonNull(predicate, "predicate is null");
        requireNonNull(transform, "transform is null");
        requireNonNull(sourceType, "sourceType is null");
    }

    public static PartitionField of(FieldPredicate predicate) {
        Transform transform;
        try {
            transform = Transform.parse(predicate.transform());
        } catch (IllegalArgumentException e) {
            throw new CannotRenderException(e.getMessage());
        }
        return new PartitionField(predicate, transform, SourceType.parse(predicate.sourceType()));
    }

    public String column() {
        return predicate.sourceColumn();
    }

    public boolean isNullValue() {
        return predicate.value() == null;
    }

    public boolean hasRange() {
        return predicate.lowerInclusive() != null;
    }

    /** Names the field in error messages. */
    public String describe() {
        return "partition field " + Sql.printable(predicate.field()) + " (" + Sql.printable(predicate.transform()) + " of "
                + Sql.printable(predicate.sourceColumn()) + ", " + Sql.printable(predicate.sourceType()) + ")";
    }

    /** The partition value of an identity or truncate field, typed. */
    public SqlValue value() {
        return SqlValues.internal(sourceType, predicate.value(), describe());
    }

    public SqlValue lowerInclusive() {
        return SqlValues.bound(sourceType, predicate.lowerInclusive(), "lower bound of " + describe());
    }

    public SqlValue upperExclusive() {
        return SqlValues.bound(sourceType, predicate.upperExclusive(), "upper bound of " + describe());
    }

    /** The bucket number of a bucket field, checked against the bucket count. */
    public int bucketNumber() {
        try {
            int bucket = Integer.parseInt(predicate.value());
            if (bucket < 0 || bucket >= transform.parameter()) {
                throw new NumberFormatException("outside 0.." + (transform.parameter() - 1));
            }
            return bucket;
        } catch (NumberFormatException e) {
            throw new CannotRenderException("Cannot render " + describe() + ": '" + Sql.printable(predicate.value())
                    + "' is not a bucket number (" + e.getMessage() + ")", e);
        }
    }
}
