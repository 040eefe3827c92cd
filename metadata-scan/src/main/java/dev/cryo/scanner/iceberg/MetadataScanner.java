package dev.cryo.scanner.iceberg;

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
import dev.cryo.scanner.domain.FileSizeRules;
import dev.cryo.scanner.domain.ManifestAggregate;
import dev.cryo.scanner.domain.ScanAssembler;
import dev.cryo.scanner.domain.SnapshotChange;
import dev.cryo.scanner.domain.StatisticsMath;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;

import static java.util.Objects.requireNonNull;

/**
 * Measures a table from its metadata alone: the current snapshot's manifest list and manifests
 * (through the cache, so only manifests never seen before are read), the snapshot log, the
 * statistics files and the table properties. Never opens a data file.
 */
public final class MetadataScanner {

    /** Summary property with which Cryo's executor marks its own commits. */
    public static final String CRYO_JOB_ID = "cryo.job-id";

    private final ManifestCache cache;
    private final ExecutorService manifestReaders;
    private final long smallManifestBytes;
    private final Clock clock;

    /**
     * @param manifestReaders the threads that read manifests not in the cache
     * @param smallManifestBytes manifests smaller than this count as small
     */
    public MetadataScanner(ManifestCache cache, ExecutorService manifestReaders, long smallManifestBytes, Clock clock) {
        this.cache = requireNonNull(cache, "cache is null");
        this.manifestReaders = requireNonNull(manifestReaders, "manifestReaders is null");
        this.smallManifestBytes = smallManifestBytes;
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Scans the table's current snapshot.
     *
     * @param orphans the last orphan listing of the table (null: none ran yet)
     */
    public TableScanned scan(TableId id, Table table, OrphanStats orphans) {
        long startNanos = System.nanoTime();
        Map<String, String> properties = table.properties();
        FileSizeTerms terms = FileSizeRules.termsOf(properties);
        Snapshot current = table.currentSnapshot();
        Map<Integer, PartitionSpec> specs = table.specs();

        List<ManifestFile> manifests = current == null ? List.of() : current.allManifests(table.io());
        Map<String, ManifestAggregate> aggregates = new HashMap<>(cache.find(paths(manifests), terms));
        int cached = aggregates.size();
        List<ManifestFile> missing = manifests.stream().filter(m -> !aggregates.containsKey(m.path())).toList();
        List<ManifestAggregate> read = read(missing, table.io(), specs, terms);
        if (!read.isEmpty()) {
            cache.store(read, terms);
        }
        read.forEach(aggregate -> aggregates.put(aggregate.manifestPath(), aggregate));

        List<ManifestAggregate> inOrder = manifests.stream().map(m -> aggregates.get(m.path())).toList();
        List<PartitionStats> partitions = ScanAssembler.partitions(inOrder);
        TableTotals totals = TableTotals.of(partitions);

        Duration duration = Duration.ofNanos(System.nanoTime() - startNanos);
        return new TableScanned(
                id,
                UUID.randomUUID().toString(),
                clock.instant(),
                duration,
                TableUtil.formatVersion(table),
                current == null ? null : current.snapshotId(),
                current == null ? null : current.sequenceNumber(),
                current == null ? null : Instant.ofEpochMilli(current.timestampMillis()),
                table.location(),
                terms,
                totals,
                specInfos(table, partitions),
                partitions,
                snapshotStats(table),
                manifestStats(manifests, specs, partitions),
                statisticsStats(table),
                orphans,
                checkedProperties(properties),
                new ScanCounters(read.size(), cached));
    }

    /** The Cryo job that made the current snapshot, from its summary (null when a writer made it). */
    public static String cryoJobIdOf(Table table) {
        Snapshot current = table.currentSnapshot();
        return current == null || current.summary() == null ? null : current.summary().get(CRYO_JOB_ID);
    }

    private List<ManifestAggregate> read(List<ManifestFile> manifests, FileIO io, Map<Integer, PartitionSpec> specs,
                                         FileSizeTerms terms) {
        if (manifests.isEmpty()) {
            return List.of();
        }
        if (manifests.size() == 1) {
            return List.of(ManifestSummarizer.summarize(manifests.get(0), io, specs, terms));
        }
        List<CompletableFuture<ManifestAggregate>> futures = manifests.stream()
                .map(manifest -> CompletableFuture.supplyAsync(
                        () -> ManifestSummarizer.summarize(manifest, io, specs, terms), manifestReaders))
                .toList();
        try {
            return futures.stream().map(CompletableFuture::join).toList();
        } catch (CompletionException e) {
            futures.forEach(future -> future.cancel(false));
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    private static List<String> paths(Collection<ManifestFile> manifests) {
        return manifests.stream().map(ManifestFile::path).toList();
    }

    private static List<PartitionSpecInfo> specInfos(Table table, List<PartitionStats> partitions) {
        Set<Integer> used = new TreeSet<>();
        used.add(table.spec().specId());
        partitions.forEach(partition -> used.add(partition.specId()));
        List<PartitionSpecInfo> infos = new ArrayList<>();
        for (int specId : used) {
            PartitionSpec spec = table.specs().get(specId);
            List<PartitionFieldInfo> fields = new ArrayList<>();
            for (PartitionField field : spec.fields()) {
                fields.add(new PartitionFieldInfo(field.name(), sourceColumn(table, field.sourceId()), field.sourceId(),
                        sourceType(table, spec, field.sourceId()), field.transform().toString()));
            }
            infos.add(new PartitionSpecInfo(specId, fields));
        }
        return infos;
    }

    private static String sourceColumn(Table table, int sourceId) {
        String name = table.schema().findColumnName(sourceId);
        if (name != null) {
            return name;
        }
        // the column was dropped since: its last name is in an older schema
        for (Schema schema : table.schemas().values()) {
            String older = schema.findColumnName(sourceId);
            if (older != null) {
                return older;
            }
        }
        return "field-" + sourceId;
    }

    private static String sourceType(Table table, PartitionSpec spec, int sourceId) {
        Types.NestedField field = table.schema().findField(sourceId);
        if (field == null) {
            field = spec.schema().findField(sourceId);
        }
        return field == null ? "unknown" : field.type().toString();
    }

    private static SnapshotStats snapshotStats(Table table) {
        int count = 0;
        Long oldest = null;
        Long newest = null;
        for (Snapshot snapshot : table.snapshots()) {
            count++;
            oldest = oldest == null ? snapshot.timestampMillis() : Math.min(oldest, snapshot.timestampMillis());
            newest = newest == null ? snapshot.timestampMillis() : Math.max(newest, snapshot.timestampMillis());
        }
        Map<String, SnapshotRef> refs = table.refs();
        int branches = (int) refs.values().stream().filter(SnapshotRef::isBranch).count();
        int tags = (int) refs.values().stream().filter(SnapshotRef::isTag).count();
        return new SnapshotStats(count, oldest == null ? null : Instant.ofEpochMilli(oldest),
                newest == null ? null : Instant.ofEpochMilli(newest), branches, tags);
    }

    private ManifestStats manifestStats(List<ManifestFile> manifests, Map<Integer, PartitionSpec> specs,
                                        List<PartitionStats> partitions) {
        long bytes = 0;
        int data = 0;
        int deletes = 0;
        int small = 0;
        for (ManifestFile manifest : manifests) {
            bytes += manifest.length();
            if (manifest.content() == ManifestContent.DATA) {
                data++;
            } else {
                deletes++;
            }
            if (manifest.length() < smallManifestBytes) {
                small++;
            }
        }
        return new ManifestStats(manifests.size(), bytes, data, deletes, small,
                PartitionSpan.meanShare(manifests, specs, partitions));
    }

    private static StatisticsStats statisticsStats(Table table) {
        List<StatisticsFile> files = table.statisticsFiles();
        if (files.isEmpty()) {
            return StatisticsStats.NONE;
        }
        List<StatisticsFileInfo> infos = files.stream()
                .map(file -> new StatisticsFileInfo(file.snapshotId(), file.path(), file.fileSizeInBytes()))
                .sorted(java.util.Comparator.comparingLong(StatisticsFileInfo::snapshotId))
                .toList();
        // the newest described snapshot is the one committed last among those still in the table
        Long newest = null;
        long newestMillis = Long.MIN_VALUE;
        for (StatisticsFile file : files) {
            Snapshot described = table.snapshot(file.snapshotId());
            if (described != null && described.timestampMillis() > newestMillis) {
                newest = described.snapshotId();
                newestMillis = described.timestampMillis();
            }
        }
        Long rowsChanged = null;
        Snapshot current = table.currentSnapshot();
        if (newest != null && current != null) {
            List<SnapshotChange> ancestry = new ArrayList<>();
            for (Snapshot snapshot : SnapshotUtil.ancestorsOf(current.snapshotId(), table::snapshot)) {
                Map<String, String> summary = snapshot.summary();
                ancestry.add(new SnapshotChange(snapshot.snapshotId(), number(summary, "added-records"),
                        number(summary, "deleted-records"), summary != null && !summary.isEmpty(),
                        DataOperations.REPLACE.equals(snapshot.operation())));
            }
            rowsChanged = StatisticsMath.rowsChangedSince(ancestry, newest);
        }
        return new StatisticsStats(infos, newest, rowsChanged);
    }

    private static long number(Map<String, String> summary, String key) {
        if (summary == null || summary.get(key) == null) {
            return 0;
        }
        try {
            return Long.parseLong(summary.get(key));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The table properties the checks read: target size, gc, snapshot expiry, and Cryo's own overrides. */
    static Map<String, String> checkedProperties(Map<String, String> properties) {
        Map<String, String> checked = new TreeMap<>();
        properties.forEach((key, value) -> {
            if (key.equals(FileSizeRules.TARGET_FILE_SIZE) || key.equals("gc.enabled")
                    || key.startsWith("history.expire.") || key.startsWith("cryo.")) {
                checked.put(key, value);
            }
        });
        return checked;
    }
}
