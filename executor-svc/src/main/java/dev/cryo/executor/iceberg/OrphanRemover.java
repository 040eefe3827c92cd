package dev.cryo.executor.iceberg;

import dev.cryo.contracts.event.FileCounts;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.platform.error.CryoException;
import io.quarkus.logging.Log;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * remove_orphan_files: lists the table location and deletes files that no snapshot references
 * and that are older than the age floor. Referenced means: any data or delete file of any
 * snapshot's manifests, every manifest and manifest list, every metadata.json in the metadata
 * log, the version hint, and every statistics and partition statistics file. A dry run reports
 * the same list and deletes nothing. A table with {@code gc.enabled=false} is refused.
 */
final class OrphanRemover {

    private final Table table;

    OrphanRemover(Table table) {
        this.table = table;
    }

    /** The orphans, oldest first; deletes them unless {@code dryRun}. */
    StepResult remove(Duration ageFloor, Instant now, boolean dryRun) {
        table.refresh();
        SnapshotExpirer.requireGarbageCollection(table, "remove orphan files");
        if (!(table.io() instanceof SupportsPrefixOperations listing)) {
            throw new CryoException(ExecutorErrorCode.REFUSED_BY_TABLE_SETTINGS, "Cannot remove orphan files of "
                    + table.name() + ": its FileIO " + table.io().getClass().getSimpleName() + " cannot list a prefix;"
                    + " configure an io-impl that can (HadoopFileIO, S3FileIO) for catalog " + table.name());
        }
        Set<String> referenced = referenced();
        long cutoff = now.minus(ageFloor).toEpochMilli();
        List<FileInfo> orphans = new ArrayList<>();
        long listed = 0;
        for (FileInfo file : listing.listPrefix(table.location())) {
            listed++;
            if (!referenced.contains(normalize(file.location())) && file.createdAtMillis() < cutoff) {
                orphans.add(file);
            }
        }
        orphans.sort((a, b) -> Long.compare(a.createdAtMillis(), b.createdAtMillis()));
        long bytes = orphans.stream().mapToLong(FileInfo::size).sum();
        if (!dryRun) {
            for (FileInfo orphan : orphans) {
                table.io().deleteFile(orphan.location());
            }
            Log.infof("%s: deleted %d orphan files (%d bytes) older than %s", table.name(), orphans.size(), bytes, ageFloor);
        }
        List<String> locations = orphans.stream().map(FileInfo::location).toList();
        return new StepResult(new FileCounts(orphans.size(), bytes, 0, 0),
                dryRun ? new FileCounts(orphans.size(), bytes, 0, 0) : FileCounts.ZERO, null, 0,
                (dryRun ? "dry run: would delete " : "deleted ") + orphans.size() + " orphan files (" + bytes
                        + " bytes) of " + listed + " listed, age floor " + ageFloor, locations);
    }

    private Set<String> referenced() {
        Set<String> referenced = new HashSet<>();
        Set<String> manifestsSeen = new HashSet<>();
        for (Snapshot snapshot : table.snapshots()) {
            if (snapshot.manifestListLocation() != null) {
                referenced.add(normalize(snapshot.manifestListLocation()));
            }
            for (ManifestFile manifest : snapshot.allManifests(table.io())) {
                if (!manifestsSeen.add(manifest.path())) {
                    continue;
                }
                referenced.add(normalize(manifest.path()));
                try (CloseableIterable<String> paths = ManifestFiles.readPaths(manifest, table.io())) {
                    paths.forEach(path -> referenced.add(normalize(path)));
                } catch (IOException e) {
                    throw new CryoException(ExecutorErrorCode.STORAGE_FAILURE, "Cannot read manifest " + manifest.path()
                            + " while looking for orphans of " + table.name() + ": " + e.getMessage(), e);
                }
            }
        }
        ReachableFileUtil.metadataFileLocations(table, true).forEach(location -> referenced.add(normalize(location)));
        referenced.add(normalize(ReachableFileUtil.versionHintLocation(table)));
        for (StatisticsFile statistics : table.statisticsFiles()) {
            referenced.add(normalize(statistics.path()));
        }
        for (PartitionStatisticsFile statistics : table.partitionStatisticsFiles()) {
            referenced.add(normalize(statistics.path()));
        }
        return referenced;
    }

    /** One spelling per file: {@code file:/a}, {@code file:///a} and {@code /a} are the same file. */
    static String normalize(String location) {
        try {
            URI uri = URI.create(location);
            String scheme = uri.getScheme() == null ? "file" : uri.getScheme();
            String authority = uri.getRawAuthority() == null ? "" : uri.getRawAuthority();
            return scheme + "://" + authority + uri.normalize().getRawPath();
        } catch (IllegalArgumentException e) {
            return location;
        }
    }
}
