package dev.cryo.scorer;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.ManifestStats;
import dev.cryo.contracts.event.OrphanStats;
import dev.cryo.contracts.event.PartitionFieldInfo;
import dev.cryo.contracts.event.PartitionSpecInfo;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.ScanCounters;
import dev.cryo.contracts.event.SnapshotStats;
import dev.cryo.contracts.event.StatisticsFileInfo;
import dev.cryo.contracts.event.StatisticsStats;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.event.TableTotals;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Builds {@link TableScanned} events for tests. It starts from a healthy 50 GiB table that no check
 * deducts from: 200 data files of 256 MiB in 10 day partitions, no deletes, 20 snapshots of the last
 * two days, 10 manifests, fresh statistics, and a storage listing without orphans.
 */
public final class ScanBuilder {

    public static final long MIB = 1024L * 1024;
    public static final long GIB = 1024 * MIB;
    public static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    private TableId table = TableId.parse("lake.analytics.events");
    private String scanId = UUID.randomUUID().toString();
    private Instant scannedAt = NOW;
    private long dataBytes = 50 * GIB;
    private long dataFiles = 200;
    private long records = 100_000_000;
    private long smallFiles;
    private long[] smallPerPartition;
    private long oversizedFiles;
    private long positionDeleteFiles;
    private long positionDeleteRecords;
    private long equalityDeleteFiles;
    private long equalityDeleteRecords;
    private long[] partitionFiles;
    private int partitionCount = 10;
    private int snapshotCount = 20;
    private Instant oldestSnapshotAt = NOW.minus(Duration.ofDays(2));
    private int manifests = 10;
    private Double partitionSpanShare = 0.1;
    private boolean statistics = true;
    private Long rowsChangedSinceNewest = 1_000L;
    private Long orphanBytes = 0L;
    private final Map<String, String> properties = new TreeMap<>(Map.of("write.target-file-size-bytes", String.valueOf(512 * MIB)));

    public static ScanBuilder healthy() {
        return new ScanBuilder();
    }

    public ScanBuilder table(TableId value) {
        table = value;
        return this;
    }

    public ScanBuilder table(String value) {
        return table(TableId.parse(value));
    }

    public ScanBuilder scanId(String value) {
        scanId = value;
        return this;
    }

    public ScanBuilder scannedAt(Instant value) {
        scannedAt = value;
        return this;
    }

    public ScanBuilder dataBytes(long value) {
        dataBytes = value;
        return this;
    }

    public ScanBuilder dataFiles(long value) {
        dataFiles = value;
        return this;
    }

    public ScanBuilder records(long value) {
        records = value;
        return this;
    }

    public ScanBuilder smallFiles(long value) {
        smallFiles = value;
        return this;
    }

    /** Small files per partition, one count per partition of {@link #partitionFiles} (the total stays as set). */
    public ScanBuilder smallFilesPerPartition(long... counts) {
        smallPerPartition = counts.clone();
        return this;
    }

    public ScanBuilder oversizedFiles(long value) {
        oversizedFiles = value;
        return this;
    }

    public ScanBuilder positionDeletes(long files, long deletedRows) {
        positionDeleteFiles = files;
        positionDeleteRecords = deletedRows;
        return this;
    }

    public ScanBuilder equalityDeletes(long files, long deletedRows) {
        equalityDeleteFiles = files;
        equalityDeleteRecords = deletedRows;
        return this;
    }

    /** Partitions with these data-file counts (the totals' data files stay as set). */
    public ScanBuilder partitionFiles(long... files) {
        partitionFiles = files.clone();
        return this;
    }

    /** {@code count} partitions with the data files spread evenly. */
    public ScanBuilder partitions(int count) {
        partitionCount = count;
        partitionFiles = null;
        return this;
    }

    public ScanBuilder snapshots(int count, Instant oldestAt) {
        snapshotCount = count;
        oldestSnapshotAt = oldestAt;
        return this;
    }

    public ScanBuilder manifests(int count, Double spanShare) {
        manifests = count;
        partitionSpanShare = spanShare;
        return this;
    }

    public ScanBuilder noStatistics() {
        statistics = false;
        rowsChangedSinceNewest = null;
        return this;
    }

    public ScanBuilder rowsChangedSinceStatistics(Long value) {
        statistics = true;
        rowsChangedSinceNewest = value;
        return this;
    }

    /** Orphan bytes of the last listing; null: no listing ran yet. */
    public ScanBuilder orphanBytes(Long value) {
        orphanBytes = value;
        return this;
    }

    public ScanBuilder property(String key, String value) {
        properties.put(key, value);
        return this;
    }

    public TableScanned build() {
        long[] files = partitionFiles != null ? partitionFiles : evenly(dataFiles, partitionCount);
        long[] small = smallPerPartition != null ? smallPerPartition : spread(smallFiles, files);
        List<PartitionStats> partitions = new ArrayList<>();
        for (int i = 0; i < files.length; i++) {
            long share = dataFiles == 0 ? 0 : files[i] * 1000 / Math.max(1, Arrays.stream(files).sum());
            partitions.add(new PartitionStats(0, List.of(String.valueOf(20_000 + i)), files[i],
                    dataBytes * share / 1000, records * share / 1000, small[i], small[i] * 16 * MIB, 0, List.of(), 0, 0,
                    0, 0));
        }
        TableTotals totals = new TableTotals(files.length, dataFiles, dataBytes, records, smallFiles,
                smallFiles * 16 * MIB, oversizedFiles, positionDeleteFiles, positionDeleteRecords, equalityDeleteFiles,
                equalityDeleteRecords);
        PartitionSpecInfo spec = new PartitionSpecInfo(0,
                List.of(new PartitionFieldInfo("event_day", "event_ts", 2, "timestamptz", "day")));
        SnapshotStats snapshots = new SnapshotStats(snapshotCount, oldestSnapshotAt, snapshotCount == 0 ? null : scannedAt,
                1, 0);
        StatisticsStats statisticsStats = statistics
                ? new StatisticsStats(List.of(new StatisticsFileInfo(41, "s3://warehouse/" + table.table()
                + "/metadata/stats.puffin", 4096)), 41L, rowsChangedSinceNewest)
                : StatisticsStats.NONE;
        OrphanStats orphans = orphanBytes == null ? null
                : new OrphanStats(scannedAt.minus(Duration.ofHours(3)), 1000, orphanBytes == 0 ? 0 : 3, orphanBytes,
                Duration.ofDays(3));
        return new TableScanned(table, scanId, scannedAt, Duration.ofMillis(120), 2, 42L, 42L,
                scannedAt.minusSeconds(5), "s3://warehouse/" + table.table(), FileSizeTerms.forTarget(512 * MIB), totals,
                List.of(spec), partitions, snapshots, new ManifestStats(manifests, manifests * 8192L, manifests, 0, 0,
                partitionSpanShare), statisticsStats, orphans, properties, new ScanCounters(manifests, 0));
    }

    /** The small files spread over the partitions in proportion to their files, never more than a partition holds. */
    private static long[] spread(long total, long[] files) {
        long[] small = new long[files.length];
        long left = total;
        for (int round = 0; left > 0 && round < 1_000_000; round++) {
            boolean placed = false;
            for (int i = 0; i < files.length && left > 0; i++) {
                if (small[i] < files[i]) {
                    small[i]++;
                    left--;
                    placed = true;
                }
            }
            if (!placed) {
                break;
            }
        }
        return small;
    }

    private static long[] evenly(long total, int count) {
        long[] files = new long[count];
        for (int i = 0; i < count; i++) {
            files[i] = total / count + (i < total % count ? 1 : 0);
        }
        return files;
    }
}
