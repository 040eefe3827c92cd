package dev.cryo.planner.config;

import dev.cryo.planner.domain.PlanningPolicy;
import dev.cryo.planner.domain.PolicyOverride;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The planner's settings. Every planning setting can be overridden per table pattern:
 * {@code cryo.planner.policies."lake.dashboards.*".chunk-budget-bytes=2147483648}.
 */
@ConfigMapping(prefix = "cryo.planner")
public interface PlannerConfig {

    /** A partition with fewer small files than this, and no delete files, is not rewritten. */
    @WithDefault("5")
    int smallFileThreshold();

    /** Input bytes one chunk may hold (10 GiB); a partition above it runs alone in its own chunk. */
    @WithDefault("10737418240")
    long chunkBudgetBytes();

    /** Partitions one chunk may hold. */
    @WithDefault("64")
    int partitionsPerChunk();

    /** Partitions one operation of a plan takes, worst first; the rest wait for the next plan. */
    @WithDefault("2000")
    int maxPartitionsPerOperation();

    /** expire_snapshots: snapshots older than this may expire, unless the table sets history.expire.max-snapshot-age-ms. */
    @WithDefault("P7D")
    Duration snapshotRetention();

    /** expire_snapshots: snapshots always kept, unless the table sets history.expire.min-snapshots-to-keep. */
    @WithDefault("10")
    int retainLast();

    /** remove_orphan_files: files younger than this are never deleted; at least 24 hours unless cryo.orphans.allow-unsafe-floor. */
    @WithDefault("P3D")
    Duration orphanAgeFloor();

    /** Stored scans kept per table: the planner plans from the scan a grade names, usually the newest. */
    @WithDefault("3")
    int scansKeptPerTable();

    /**
     * How long a finished job waits for a grade of a scan that started after its last change;
     * then its JobScored is published without an actual score, saying so.
     */
    @WithDefault("PT30M")
    Duration scoreWait();

    /** How often the jobs that waited longer than {@link #scoreWait()} are looked for. */
    @WithDefault("PT1M")
    Duration scoreSweepInterval();

    /** Overrides of the settings above, by table glob ({@code *} any characters, {@code ?} one). */
    Map<String, Override> policies();

    /** The settings one table pattern changes; unset ones keep the global value. */
    interface Override {
        /** See {@link PlannerConfig#smallFileThreshold()}. */
        OptionalInt smallFileThreshold();

        /** See {@link PlannerConfig#chunkBudgetBytes()}. */
        OptionalLong chunkBudgetBytes();

        /** See {@link PlannerConfig#partitionsPerChunk()}. */
        OptionalInt partitionsPerChunk();

        /** See {@link PlannerConfig#maxPartitionsPerOperation()}. */
        OptionalInt maxPartitionsPerOperation();

        /** See {@link PlannerConfig#snapshotRetention()}. */
        Optional<Duration> snapshotRetention();

        /** See {@link PlannerConfig#retainLast()}. */
        OptionalInt retainLast();

        /** See {@link PlannerConfig#orphanAgeFloor()}. */
        Optional<Duration> orphanAgeFloor();
    }

    /** The global settings as a policy. */
    default PlanningPolicy basePolicy() {
        return new PlanningPolicy(smallFileThreshold(), chunkBudgetBytes(), partitionsPerChunk(),
                maxPartitionsPerOperation(), snapshotRetention(),
                retainLast(), orphanAgeFloor());
    }

    /** The pattern overrides as domain values. */
    default Map<String, PolicyOverride> overridesByPattern() {
        Map<String, PolicyOverride> overrides = new LinkedHashMap<>();
        policies().forEach((pattern, override) -> overrides.put(pattern, new PolicyOverride(
                override.smallFileThreshold().isPresent() ? override.smallFileThreshold().getAsInt() : null,
                override.chunkBudgetBytes().isPresent() ? override.chunkBudgetBytes().getAsLong() : null,
                override.partitionsPerChunk().isPresent() ? override.partitionsPerChunk().getAsInt() : null,
                override.maxPartitionsPerOperation().isPresent() ? override.maxPartitionsPerOperation().getAsInt() : null,
                override.snapshotRetention().orElse(null),
                override.retainLast().isPresent() ? override.retainLast().getAsInt() : null,
                override.orphanAgeFloor().orElse(null))));
        return overrides;
    }
}
