package dev.cryo.planner.domain;

import dev.cryo.contracts.OrphanAgeFloors;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * The planning settings of one table, after pattern overrides were applied.
 *
 * @param smallFileThreshold a partition with fewer small files than this, and no delete files, is left alone
 * @param chunkBudgetBytes input bytes one chunk may hold; a partition above it runs alone
 * @param partitionsPerChunk partitions one chunk may hold
 * @param maxPartitionsPerOperation partitions one operation of a plan takes, worst first; the rest wait for
 *                                  the next plan (every job ends with a fresh scan and grade). It bounds a
 *                                  job's length and keeps the plan within one Kafka record
 * @param snapshotRetention expire_snapshots: snapshots older than this may go (a table's
 *                          {@code history.expire.max-snapshot-age-ms} wins)
 * @param retainLast expire_snapshots: snapshots always kept (a table's {@code history.expire.min-snapshots-to-keep} wins)
 * @param orphanAgeFloor remove_orphan_files: files younger than this are never orphans; at least
 *                       {@link OrphanAgeFloors#MINIMUM} unless unsafe floors are allowed ({@link TablePolicies} checks)
 */
public record PlanningPolicy(int smallFileThreshold, long chunkBudgetBytes, int partitionsPerChunk,
                             int maxPartitionsPerOperation, Duration snapshotRetention, int retainLast, Duration orphanAgeFloor) {

    /** SCORING.md's defaults. */
    public static final PlanningPolicy DEFAULTS = new PlanningPolicy(5, 10L * 1024 * 1024 * 1024, 64, 2000,
            Duration.ofDays(7), 10, Duration.ofDays(3));

    public PlanningPolicy {
        if (smallFileThreshold < 1) {
            throw new IllegalArgumentException("Cannot use small-file threshold " + smallFileThreshold
                    + ": it must be at least 1 (cryo.planner.small-file-threshold)");
        }
        if (chunkBudgetBytes < 1) {
            throw new IllegalArgumentException("Cannot use chunk budget " + chunkBudgetBytes
                    + " bytes: it must be positive (cryo.planner.chunk-budget-bytes)");
        }
        if (partitionsPerChunk < 1) {
            throw new IllegalArgumentException("Cannot use " + partitionsPerChunk
                    + " partitions per chunk: it must be at least 1 (cryo.planner.partitions-per-chunk)");
        }
        if (maxPartitionsPerOperation < 1) {
            throw new IllegalArgumentException("Cannot take " + maxPartitionsPerOperation
                    + " partitions per operation: it must be at least 1 (cryo.planner.max-partitions-per-operation)");
        }
        requireNonNull(snapshotRetention, "snapshotRetention is null");
        if (snapshotRetention.isNegative()) {
            throw new IllegalArgumentException("Cannot use snapshot retention " + snapshotRetention
                    + ": it is negative (cryo.planner.snapshot-retention)");
        }
        if (retainLast < 1) {
            throw new IllegalArgumentException("Cannot keep the last " + retainLast
                    + " snapshots: it must be at least 1 (cryo.planner.retain-last)");
        }
        requireNonNull(orphanAgeFloor, "orphanAgeFloor is null");
        if (orphanAgeFloor.isNegative()) {
            throw new IllegalArgumentException("Cannot use orphan age floor " + orphanAgeFloor
                    + ": it is negative (cryo.planner.orphan-age-floor)");
        }
    }
}
