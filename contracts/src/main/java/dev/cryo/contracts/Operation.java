package dev.cryo.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Collection;
import java.util.EnumSet;
import java.util.List;

/**
 * The seven maintenance operations, declared in the only order in which Cryo runs them:
 * compaction first, then statistics, then cleanup, so that one run reclaims the space its
 * own compaction freed. {@link #ordinal()} is that order.
 */
public enum Operation {
    /** Equality deletes become position deletes. */
    CONVERT_DELETES("convert_deletes", Scope.PARTITIONS),
    /** Position delete files are compacted. */
    REWRITE_POSITION_DELETES("rewrite_position_deletes", Scope.PARTITIONS),
    /** Small data files are bin-packed, applying deletes. */
    OPTIMIZE("optimize", Scope.PARTITIONS),
    /** Puffin column statistics (NDV) are written. */
    COMPUTE_STATISTICS("compute_statistics", Scope.TABLE),
    /** Manifests are rewritten, clustered by partition. */
    OPTIMIZE_MANIFESTS("optimize_manifests", Scope.TABLE),
    /** Old snapshots and the files only they reference are dropped. */
    EXPIRE_SNAPSHOTS("expire_snapshots", Scope.TABLE),
    /** Files that no snapshot references are deleted. */
    REMOVE_ORPHAN_FILES("remove_orphan_files", Scope.TABLE);

    /** Whether an operation works on chunks of partitions or on the whole table. */
    public enum Scope { PARTITIONS, TABLE }

    private final String id;
    private final Scope scope;

    Operation(String id, Scope scope) {
        this.id = id;
        this.scope = scope;
    }

    @JsonValue
    public String id() {
        return id;
    }

    public Scope scope() {
        return scope;
    }

    @JsonCreator
    public static Operation fromId(String id) {
        for (Operation operation : values()) {
            if (operation.id.equals(id)) {
                return operation;
            }
        }
        throw new IllegalArgumentException("Cannot parse operation '" + id + "': expected one of "
                + List.of(values()).stream().map(Operation::id).toList());
    }

    /** The given operations, deduplicated, in the fixed order. */
    public static List<Operation> inFixedOrder(Collection<Operation> operations) {
        if (operations.isEmpty()) {
            return List.of();
        }
        return List.copyOf(EnumSet.copyOf(operations));
    }

    @Override
    public String toString() {
        return id;
    }
}
