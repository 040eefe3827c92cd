package dev.cryo.contracts.event;

import dev.cryo.contracts.TableId;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A metadata-only scan of a table's current snapshot: everything the 14 checks and the
 * planner need, and nothing read from data files.
 *
 * @param table the table
 * @param scanId this scan's id (a UUID)
 * @param scannedAt when the scan finished
 * @param scanDuration how long it took
 * @param formatVersion the table's Iceberg format version
 * @param snapshotId the scanned snapshot (optional: the table has none yet)
 * @param sequenceNumber its sequence number (optional)
 * @param snapshotCommittedAt its commit time (optional)
 * @param location the table location
 * @param fileSizes the file-size terms the counts use
 * @param totals table totals
 * @param specs every partition spec that live files use, the current one included
 * @param partitions per-partition statistics (one entry per spec id and partition tuple with live files)
 * @param snapshots the snapshot log
 * @param manifests the current snapshot's manifests
 * @param statistics registered statistics files
 * @param orphans the last orphan listing (optional: none ran yet)
 * @param properties the table properties the checks need ({@code write.target-file-size-bytes},
 *                   {@code gc.enabled}, {@code history.expire.*}, {@code cryo.*})
 * @param counters what the scan read and what came from the cache
 */
public record TableScanned(
        TableId table,
        String scanId,
        Instant scannedAt,
        Duration scanDuration,
        int formatVersion,
        Long snapshotId,
        Long sequenceNumber,
        Instant snapshotCommittedAt,
        String location,
        FileSizeTerms fileSizes,
        TableTotals totals,
        List<PartitionSpecInfo> specs,
        List<PartitionStats> partitions,
        SnapshotStats snapshots,
        ManifestStats manifests,
        StatisticsStats statistics,
        OrphanStats orphans,
        Map<String, String> properties,
        ScanCounters counters) implements CryoEvent {

    public TableScanned {
        requireNonNull(table, "table is null");
        Require.nonBlank(scanId, "scanId");
        requireNonNull(scannedAt, "scannedAt is null");
        requireNonNull(scanDuration, "scanDuration is null");
        if (formatVersion < 1) {
            throw new IllegalArgumentException("formatVersion must be at least 1: " + formatVersion);
        }
        Require.nonBlank(location, "location");
        requireNonNull(fileSizes, "fileSizes is null");
        requireNonNull(totals, "totals is null");
        specs = Require.list(specs, "specs");
        partitions = Require.list(partitions, "partitions");
        snapshots = Require.orDefault(snapshots, SnapshotStats.NONE);
        manifests = Require.orDefault(manifests, ManifestStats.NONE);
        statistics = Require.orDefault(statistics, StatisticsStats.NONE);
        properties = Require.sortedMap(Require.orDefault(properties, Map.of()), "properties");
        counters = Require.orDefault(counters, new ScanCounters(0, 0));
    }

    /**
     * The same scan with other statistics: what a forecast of maintenance predicts the table to look
     * like (the planner grades it to know a plan's expected score).
     */
    public TableScanned withStatistics(TableTotals totals, List<PartitionStats> partitions, SnapshotStats snapshots,
                                       ManifestStats manifests, StatisticsStats statistics, OrphanStats orphans) {
        return new TableScanned(table, scanId, scannedAt, scanDuration, formatVersion, snapshotId, sequenceNumber,
                snapshotCommittedAt, location, fileSizes, totals, specs, partitions, snapshots, manifests, statistics,
                orphans, properties, counters);
    }

    /** The same scan with other snapshot statistics. */
    public TableScanned withSnapshots(SnapshotStats snapshots) {
        return withStatistics(totals, partitions, snapshots, manifests, statistics, orphans);
    }
}
