package dev.cryo.planner.domain;

import java.time.Duration;

/**
 * Settings a table pattern changes; a null field keeps the value of the base policy.
 */
public record PolicyOverride(Integer smallFileThreshold, Long chunkBudgetBytes, Integer partitionsPerChunk,
                             Integer maxPartitionsPerOperation, Duration snapshotRetention, Integer retainLast, Duration orphanAgeFloor) {

    public static final PolicyOverride NONE = new PolicyOverride(null, null, null, null, null, null, null);

    /** The base policy with this override's settings on top. */
    public PlanningPolicy applyTo(PlanningPolicy base) {
        return new PlanningPolicy(
                smallFileThreshold != null ? smallFileThreshold : base.smallFileThreshold(),
                chunkBudgetBytes != null ? chunkBudgetBytes : base.chunkBudgetBytes(),
                partitionsPerChunk != null ? partitionsPerChunk : base.partitionsPerChunk(),
                maxPartitionsPerOperation != null ? maxPartitionsPerOperation : base.maxPartitionsPerOperation(),
                snapshotRetention != null ? snapshotRetention : base.snapshotRetention(),
                retainLast != null ? retainLast : base.retainLast(),
                orphanAgeFloor != null ? orphanAgeFloor : base.orphanAgeFloor());
    }
}
