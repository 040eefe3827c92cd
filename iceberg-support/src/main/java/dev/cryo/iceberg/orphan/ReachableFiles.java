package dev.cryo.iceberg.orphan;

import org.apache.iceberg.ContentFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Every file a table's metadata references, from all its snapshots (so every branch and tag):
 * data files, delete files (position and equality deletes, and the Puffin files that hold v3
 * deletion vectors, read from delete manifests as delete manifests), manifests, manifest lists,
 * the current and every previous metadata file of the metadata log, the version hint, and
 * statistics and partition statistics files. What is not here is unreferenced.
 *
 * <p>{@link #update} adds what newer metadata references, reading only the manifests not read
 * before: the last look before deleting costs a metadata refresh, not a second full read.
 */
public final class ReachableFiles {

    private final LocationEquivalence equivalence;
    private final Set<Long> snapshotsRead = new HashSet<>();
    private final Set<String> manifestsRead = new HashSet<>();
    /** Referenced files by path; the rare second spelling of a path (another scheme) in {@link #otherSpellings}. */
    private final Map<String, FileLocation> byPath = new HashMap<>();
    private final Map<String, List<FileLocation>> otherSpellings = new HashMap<>();
    /** The written path of each referenced file whose path is not spelled canonically, by canonical path; rare. */
    private final Map<String, String> irregularSpellings = new HashMap<>();
    private final List<LocationConflict.Spelling> spellingConflicts = new ArrayList<>();
    private long spellingConflictCount;
    private String metadataRead;

    private ReachableFiles(LocationEquivalence equivalence) {
        this.equivalence = requireNonNull(equivalence, "equivalence is null");
    }

    /** Reads everything the table's current metadata references. */
    public static ReachableFiles of(Table table, LocationEquivalence equivalence) {
        ReachableFiles files = new ReachableFiles(equivalence);
        files.update(table);
        return files;
    }

    /**
     * Adds what the table's metadata references now and did not when last read (the caller
     * refreshes the table first). Returns the number of files added.
     */
    public int update(Table table) {
        requireNonNull(table, "table is null");
        int before = size();
        for (Snapshot snapshot : table.snapshots()) {
            if (!snapshotsRead.add(snapshot.snapshotId())) {
                continue;
            }
            if (snapshot.manifestListLocation() != null) {
                add(snapshot.manifestListLocation());
            }
            for (ManifestFile manifest : snapshot.allManifests(table.io())) {
                if (manifestsRead.add(manifest.path())) {
                    add(manifest.path());
                    readEntries(table, manifest);
                }
            }
        }
        String metadataLocation = metadataLocation(table);
        if (metadataLocation == null || !metadataLocation.equals(metadataRead)) {
            ReachableFileUtil.metadataFileLocations(table, true).forEach(this::add);
            if (metadataLocation != null) {
                add(metadataLocation);
            }
            add(ReachableFileUtil.versionHintLocation(table));
            for (StatisticsFile statistics : table.statisticsFiles()) {
                add(statistics.path());
            }
            for (PartitionStatisticsFile statistics : table.partitionStatisticsFiles()) {
                add(statistics.path());
            }
            metadataRead = metadataLocation;
        }
        return size() - before;
    }

    /** Referenced files that share {@code location}'s path, whatever their scheme and authority; usually none or one. */
    List<FileLocation> withPathOf(FileLocation location) {
        FileLocation first = byPath.get(location.path());
        if (first == null) {
            return List.of();
        }
        List<FileLocation> others = otherSpellings.get(location.path());
        if (others == null) {
            return List.of(first);
        }
        List<FileLocation> all = new ArrayList<>(others.size() + 1);
        all.add(first);
        all.addAll(others);
        return all;
    }

    /** Whether the file at {@code location} is referenced under an equivalent scheme and authority. */
    public boolean references(String location) {
        FileLocation listed = FileLocation.parse(location).canonical(equivalence);
        return withPathOf(listed).stream().anyMatch(listed::sameStorage);
    }

    /** The number of distinct referenced files. */
    public int size() {
        return byPath.size() + otherSpellings.values().stream().mapToInt(List::size).sum();
    }

    /** Up to {@value OrphanSearch#CONFLICT_SAMPLE} paths that the references spell two ways. */
    List<LocationConflict.Spelling> spellingConflicts() {
        return List.copyOf(spellingConflicts);
    }

    /** How many times a path the references hold was referenced under another spelling. */
    long spellingConflictCount() {
        return spellingConflictCount;
    }

    LocationEquivalence equivalence() {
        return equivalence;
    }

    private void readEntries(Table table, ManifestFile manifest) {
        try {
            switch (manifest.content()) {
                case DATA -> {
                    try (ManifestReader<org.apache.iceberg.DataFile> reader = ManifestFiles.read(manifest, table.io(),
                            table.specs()).select(List.of("file_path"))) {
                        reader.forEach(this::add);
                    }
                }
                case DELETES -> {
                    try (ManifestReader<org.apache.iceberg.DeleteFile> reader = ManifestFiles.readDeleteManifest(manifest,
                            table.io(), table.specs())) {
                        reader.forEach(this::add);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read manifest " + manifest.path() + " of " + table.name() + ": "
                    + e.getMessage(), e);
        }
    }

    private void add(ContentFile<?> file) {
        add(file.location());
    }

    private void add(String location) {
        FileLocation referenced = FileLocation.parse(location).canonical(equivalence);
        checkSpelling(location, referenced);
        FileLocation first = byPath.putIfAbsent(referenced.path(), referenced);
        if (first != null && !first.equals(referenced)) {
            List<FileLocation> others = otherSpellings.computeIfAbsent(referenced.path(), path -> new ArrayList<>(1));
            if (!others.contains(referenced)) {
                others.add(referenced);
            }
        }
    }

    /** Notes a path referenced under two spellings (see {@link FileLocation}): orphan removal stops on it. */
    private void checkSpelling(String location, FileLocation referenced) {
        String spelled = FileLocation.spelling(location);
        String irregular = irregularSpellings.get(referenced.path());
        if (spelled.equals(referenced.path())) {
            if (irregular != null) {
                spellingConflict(irregular, location);
            }
            return;
        }
        if (irregular == null) {
            FileLocation earlier = byPath.get(referenced.path());
            if (earlier != null) {
                spellingConflict(earlier.toString(), location);
            }
            irregularSpellings.put(referenced.path(), location);
        } else if (!FileLocation.spelling(irregular).equals(spelled)) {
            spellingConflict(irregular, location);
        }
    }

    private void spellingConflict(String first, String second) {
        spellingConflictCount++;
        if (spellingConflicts.size() < OrphanSearch.CONFLICT_SAMPLE) {
            spellingConflicts.add(new LocationConflict.Spelling(first, second));
        }
    }

    private static String metadataLocation(Table table) {
        if (table instanceof HasTableOperations operations) {
            TableMetadata metadata = operations.operations().current();
            return metadata == null ? null : metadata.metadataFileLocation();
        }
        return null;
    }
}
