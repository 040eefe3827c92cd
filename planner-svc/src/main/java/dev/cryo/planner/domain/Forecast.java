package dev.cryo.planner.domain;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.ManifestStats;
import dev.cryo.contracts.event.OrphanStats;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.contracts.event.SnapshotStats;
import dev.cryo.contracts.event.StatisticsFileInfo;
import dev.cryo.contracts.event.StatisticsStats;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.event.TableTotals;
import dev.cryo.scoring.SnapshotExpiry;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * What a plan leaves of the table: the stored scan with each planned operation applied in the
 * fixed order, as the native engine does it. The planner grades the result with the scorer's rules
 * and limits, and that grade is the plan's expected score.
 *
 * <ul>
 *   <li>{@code convert_deletes}, {@code rewrite_position_deletes}: the selected partitions lose their
 *       equality (or position) delete files and records; the rows a position delete removed leave the
 *       data.</li>
 *   <li>{@code optimize}: in a selected partition with delete files every data file is rewritten with
 *       its deletes applied; otherwise its small files are packed into {@code ceil(bytes / target)}
 *       files, of which the last is small when its remainder is under the small-file threshold.
 *       Oversized files of a partition without deletes are left as they are.</li>
 *   <li>{@code compute_statistics}: statistics describe the current snapshot, no row changed since.</li>
 *   <li>{@code optimize_manifests}: data manifests of about the target manifest size (8 MiB unless
 *       the table sets {@code commit.manifest.target-size-bytes}), clustered: each spans its share of
 *       the partitions.</li>
 *   <li>{@code expire_snapshots}: what {@link SnapshotExpiry#after} leaves, after the job's own
 *       commits (one per chunk of a rewrite, one for the manifest rewrite), which are the newest.</li>
 *   <li>{@code remove_orphan_files}: no orphan bytes when the listing counted only files older than
 *       the plan's age floor; otherwise the listing's count stays (younger files survive the floor).</li>
 * </ul>
 * Every commit adds a snapshot and a manifest; without an expiry or a manifest rewrite in the plan
 * they stay.
 */
public final class Forecast {

    /** Iceberg's {@code commit.manifest.target-size-bytes} and its default. */
    static final String MANIFEST_TARGET_PROPERTY = "commit.manifest.target-size-bytes";
    static final long MANIFEST_TARGET_DEFAULT = 8L * 1024 * 1024;

    /**
     * The table after the plan.
     *
     * @param selected the partitions of each partition-scoped operation, as the planner selected them
     * @param expiry the snapshot expiry the plan's expire_snapshots runs with (its parameters)
     * @param now the time the plan is taken to run at
     */
    public static TableScanned after(TableScanned scan, List<PlannedOperation> operations,
                                     Map<Operation, List<PartitionStats>> selected, SnapshotExpiry expiry, Instant now) {
        requireNonNull(scan, "scan is null");
        requireNonNull(expiry, "expiry is null");
        Map<PartitionKey, PartitionStats> partitions = new LinkedHashMap<>();
        scan.partitions().forEach(partition -> partitions.put(PartitionKey.of(partition), partition));
        TableTotals totals = scan.totals();
        SnapshotStats snapshots = scan.snapshots();
        ManifestStats manifests = scan.manifests();
        StatisticsStats statistics = scan.statistics();
        OrphanStats orphans = scan.orphans();
        int commits = 0;
        int newManifests = 0;
        for (PlannedOperation planned : operations) {
            Operation operation = planned.operation();
            switch (operation) {
                case CONVERT_DELETES, REWRITE_POSITION_DELETES, OPTIMIZE -> {
                    totals = rewritePartitions(scan, operation, selected.getOrDefault(operation, List.of()), partitions, totals);
                    commits += planned.chunks().size();
                    newManifests += planned.chunks().size();
                }
                case COMPUTE_STATISTICS -> {
                    List<StatisticsFileInfo> files = new ArrayList<>(statistics.files());
                    long described = scan.snapshotId() == null ? 0 : scan.snapshotId();
                    files.add(new StatisticsFileInfo(described, scan.location() + "/metadata/forecast.stats", 0));
                    statistics = new StatisticsStats(files, described, 0L);
                }
                case OPTIMIZE_MANIFESTS -> {
                    manifests = rewrittenManifests(manifests, scan.properties(), totals.partitions());
                    commits++;
                    newManifests = 0;
                }
                case EXPIRE_SNAPSHOTS -> {
                    snapshots = expiry.after(snapshots, now, commits);
                    commits = 0;
                }
                case REMOVE_ORPHAN_FILES -> {
                    Duration floor = planned.parameters().orphanAgeFloor();
                    if (orphans != null && (floor == null || !orphans.ageFloor().minus(floor).isNegative())) {
                        orphans = new OrphanStats(now, orphans.listedFiles() - orphans.orphanFiles(),
                                0, 0, orphans.ageFloor());
                    }
                }
            }
        }
        return scan.withStatistics(totals, List.copyOf(partitions.values()),
                withCommits(snapshots, commits, now), withNewManifests(manifests, newManifests), statistics, orphans);
    }

    /** The selected partitions as the operation leaves them, in {@code partitions}; the totals they leave. */
    private static TableTotals rewritePartitions(TableScanned scan, Operation operation, List<PartitionStats> chosen,
                                                 Map<PartitionKey, PartitionStats> partitions, TableTotals totals) {
        for (PartitionStats selected : chosen) {
            PartitionKey key = PartitionKey.of(selected);
            PartitionStats before = partitions.get(key);
            if (before == null) {
                continue;
            }
            PartitionStats after = rewrite(operation, before, scan.fileSizes().targetFileSizeBytes(),
                    scan.fileSizes().smallFileThresholdBytes());
            partitions.put(key, after);
            totals = totals.replacing(before, after);
        }
        return totals;
    }

    /** The snapshots after the plan's commits that no expiry of the plan removed. */
    private static SnapshotStats withCommits(SnapshotStats snapshots, int commits, Instant now) {
        return commits == 0 ? snapshots : new SnapshotStats(snapshots.count() + commits,
                snapshots.oldestAt() == null ? now : snapshots.oldestAt(), now, snapshots.branches(), snapshots.tags());
    }

    /** The manifests after the plan's rewrites wrote one small data manifest each, unless a manifest rewrite followed. */
    private static ManifestStats withNewManifests(ManifestStats manifests, int newManifests) {
        return newManifests == 0 ? manifests : new ManifestStats(manifests.count() + newManifests, manifests.bytes(),
                manifests.dataManifests() + newManifests, manifests.deleteManifests(),
                manifests.smallManifests() + newManifests, manifests.partitionSpanShare());
    }

    private static PartitionStats rewrite(Operation operation, PartitionStats partition, long target, long smallThreshold) {
        return switch (operation) {
            case CONVERT_DELETES -> partition.withoutEqualityDeletes();
            case REWRITE_POSITION_DELETES -> partition.withoutPositionDeletes();
            case OPTIMIZE -> optimize(partition, target, smallThreshold);
            default -> throw new IllegalArgumentException(operation + " rewrites no partition");
        };
    }

    private static PartitionStats optimize(PartitionStats partition, long target, long smallThreshold) {
        boolean everything = partition.deleteFiles() > 0;
        long bytes = everything ? partition.dataBytes() : partition.smallFileBytes();
        long written = bytes == 0 ? 0 : PartitionSelection.ceilDivide(bytes, target);
        long last = written == 0 ? 0 : bytes - (written - 1) * target;
        long smallWritten = written > 0 && last < smallThreshold ? 1 : 0;
        long kept = everything ? 0 : partition.dataFiles() - partition.smallFiles();
        long oversized = everything ? 0 : partition.oversizedFiles();
        long records = everything ? Math.max(0, partition.records() - partition.positionDeleteRecords()) : partition.records();
        return new PartitionStats(partition.specId(), partition.values(), kept + written, partition.dataBytes(), records,
                smallWritten, smallWritten == 0 ? 0 : last, Math.min(oversized, kept + written), List.of(),
                everything ? 0 : partition.positionDeleteFiles(), everything ? 0 : partition.positionDeleteRecords(),
                everything ? 0 : partition.equalityDeleteFiles(), everything ? 0 : partition.equalityDeleteRecords());
    }

    private static ManifestStats rewrittenManifests(ManifestStats manifests, Map<String, String> properties, long partitions) {
        long target = MANIFEST_TARGET_DEFAULT;
        String text = properties.get(MANIFEST_TARGET_PROPERTY);
        if (text != null && text.trim().matches("[1-9]\\d{0,17}")) {
            target = Long.parseLong(text.trim());
        }
        long dataBytes = manifests.count() == 0 ? 0 : manifests.bytes() * manifests.dataManifests() / manifests.count();
        int data = manifests.dataManifests() == 0 ? 0 : (int) Math.max(1, PartitionSelection.ceilDivide(dataBytes, target));
        Double span = manifests.partitionSpanShare();
        if (span != null && partitions > 0) {
            span = Math.min(1.0, Math.max(1.0 / partitions, 1.0 / Math.max(1, data)));
        }
        return new ManifestStats(data + manifests.deleteManifests(), manifests.bytes(), data, manifests.deleteManifests(),
                manifests.smallManifests() > 0 ? Math.min(manifests.smallManifests(), data + manifests.deleteManifests()) : 0,
                span);
    }

    /** A partition's identity: its spec and values. */
    private record PartitionKey(int specId, List<String> values) {
        static PartitionKey of(PartitionStats partition) {
            return new PartitionKey(partition.specId(), partition.values());
        }
    }

    private Forecast() {
    }
}
