package dev.cryo.enginesql;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.enginesql.expression.CannotRenderException;
import dev.cryo.enginesql.expression.PartitionField;

import java.time.Duration;
import java.util.List;

import static java.util.Objects.requireNonNull;

/** Checks and views of the plan that both renderers share. */
public final class Plans {

    /** Fails unless a partition operation comes with its chunk and a whole-table operation without one. */
    public static void checkScope(TableId table, PlannedOperation operation, Chunk chunk) {
        requireNonNull(table, "table is null");
        requireNonNull(operation, "operation is null");
        Operation op = operation.operation();
        if (op.scope() == Operation.Scope.PARTITIONS && chunk == null) {
            throw new CannotRenderException("Cannot render " + op + " for " + table
                    + ": it works on chunks of partitions, and no chunk was given");
        }
        if (op.scope() == Operation.Scope.TABLE && chunk != null) {
            throw new CannotRenderException("Cannot render " + op + " for " + table
                    + ": it works on the whole table and takes no chunk");
        }
    }

    /** The chunk's partitions, each a list of parsed fields. */
    public static List<List<PartitionField>> partitions(Chunk chunk) {
        return chunk.partitions().stream()
                .map(partition -> partition.fields().stream().map(PartitionField::of).toList())
                .toList();
    }

    /** True when the chunk is one partition of an unpartitioned spec 0: the whole table. */
    public static boolean isWholeUnpartitionedTable(Chunk chunk) {
        List<PartitionPredicate> partitions = chunk.partitions();
        return partitions.stream().allMatch(partition -> partition.specId() == 0 && partition.fields().isEmpty());
    }

    public static Duration snapshotRetention(TableId table, PlannedOperation operation) {
        Duration retention = operation.parameters().snapshotRetention();
        if (retention == null) {
            // Never fall back to an engine default: local Trino's minimum retention is 0 s.
            throw new CannotRenderException("Cannot render expire_snapshots for " + table
                    + ": the plan has no snapshot retention; set the table policy's snapshot retention");
        }
        return retention;
    }

    public static Duration orphanAgeFloor(TableId table, PlannedOperation operation) {
        Duration floor = operation.parameters().orphanAgeFloor();
        if (floor == null) {
            throw new CannotRenderException("Cannot render remove_orphan_files for " + table
                    + ": the plan has no orphan age floor; set the table policy's orphan age floor");
        }
        return floor;
    }

    /** Whole seconds, rounded up: a retention is a floor, so rounding may only keep more. */
    public static long secondsRoundedUp(Duration duration) {
        long seconds = duration.getSeconds();
        return duration.getNano() > 0 ? seconds + 1 : seconds;
    }

    private Plans() {
    }
}
