package dev.cryo.scanner.iceberg;

import dev.cryo.contracts.event.OrphanStats;
import dev.cryo.scanner.domain.OrphanCounter;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Lists the table location through the table's own FileIO (a prefix listing: names, sizes and
 * times, never file contents) and counts the files that no snapshot references: data and
 * delete files of every snapshot's manifests, the manifests and manifest lists, the current
 * and previous metadata files, statistics and partition statistics files.
 */
public final class OrphanLister {

    private final Clock clock;

    public OrphanLister(Clock clock) {
        this.clock = requireNonNull(clock, "clock is null");
    }

    public OrphanStats list(Table table, Duration ageFloor) {
        FileIO io = table.io();
        if (!(io instanceof SupportsPrefixOperations listing)) {
            throw new UnsupportedOperationException("Cannot list orphan files of " + table.name() + ": its FileIO "
                    + io.getClass().getSimpleName() + " cannot list prefixes; use HadoopFileIO or S3FileIO (io-impl)");
        }
        Instant listedAt = clock.instant();
        OrphanCounter counter = new OrphanCounter(referencedFiles(table), listedAt, ageFloor);
        String prefix = table.location().endsWith("/") ? table.location() : table.location() + "/";
        for (FileInfo file : listing.listPrefix(prefix)) {
            counter.accept(file.location(), file.size(), Instant.ofEpochMilli(file.createdAtMillis()));
        }
        return counter.result();
    }

    static Set<String> referencedFiles(Table table) {
        FileIO io = table.io();
        Set<String> referenced = new HashSet<>();
        Set<String> manifestsSeen = new HashSet<>();
        for (Snapshot snapshot : table.snapshots()) {
            if (snapshot.manifestListLocation() != null) {
                add(referenced, snapshot.manifestListLocation());
            }
            List<ManifestFile> manifests = snapshot.allManifests(io);
            for (ManifestFile manifest : manifests) {
                if (!manifestsSeen.add(manifest.path())) {
                    continue;
                }
                add(referenced, manifest.path());
                addLiveFiles(referenced, manifest, table);
            }
        }
        for (StatisticsFile file : table.statisticsFiles()) {
            add(referenced, file.path());
        }
        for (PartitionStatisticsFile file : table.partitionStatisticsFiles()) {
            add(referenced, file.path());
        }
        if (table instanceof HasTableOperations operations) {
            TableMetadata metadata = operations.operations().current();
            if (metadata.metadataFileLocation() != null) {
                add(referenced, metadata.metadataFileLocation());
                // a Hadoop catalog keeps its pointer next to the metadata files
                String directory = metadata.metadataFileLocation()
                        .substring(0, metadata.metadataFileLocation().lastIndexOf('/') + 1);
                add(referenced, directory + "version-hint.text");
            }
            metadata.previousFiles().forEach(entry -> add(referenced, entry.file()));
        }
        return referenced;
    }

    private static void addLiveFiles(Set<String> referenced, ManifestFile manifest, Table table) {
        try {
            switch (manifest.content()) {
                case DATA -> {
                    try (ManifestReader<org.apache.iceberg.DataFile> reader =
                                 ManifestFiles.read(manifest, table.io(), table.specs()).select(List.of("file_path"))) {
                        reader.forEach(file -> addFile(referenced, file));
                    }
                }
                case DELETES -> {
                    try (ManifestReader<org.apache.iceberg.DeleteFile> reader =
                                 ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
                        reader.forEach(file -> addFile(referenced, file));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read manifest " + manifest.path() + ": " + e.getMessage(), e);
        }
    }

    private static void addFile(Set<String> referenced, ContentFile<?> file) {
        add(referenced, file.location());
    }

    private static void add(Set<String> referenced, String location) {
        referenced.add(OrphanCounter.normalize(location));
    }
}
