package dev.cryo.contracts.event;

import java.util.List;

/**
 * Exactly one partition: the spec its files were written with and one predicate per spec
 * field. An empty field list with spec 0 addresses an unpartitioned table.
 */
public record PartitionPredicate(int specId, List<FieldPredicate> fields) {
    public PartitionPredicate {
        Require.nonNegative(specId, "specId");
        fields = Require.list(fields, "fields");
    }
}
