package dev.cryo.demo.fleet;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.CloseableIterable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * What the scanner measures, read here straight from Iceberg metadata with the scanner's
 * definitions (small = under 25 % of the target size, oversized = over 200 %), so the fleet
 * test can say which checks each table trips.
 */
record TableFacts(Table table, List<DataFile> dataFiles, List<DeleteFile> deleteFiles, List<Snapshot> snapshots,
                  int manifests, long targetFileBytes) {

    static TableFacts of(Table table) {
        table.refresh();
        List<DataFile> data = new ArrayList<>();
        Map<String, DeleteFile> deletes = new LinkedHashMap<>();
        if (table.currentSnapshot() != null) {
            try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
                for (FileScanTask task : tasks) {
                    data.add(task.file());
                    task.deletes().forEach(delete -> deletes.putIfAbsent(delete.location() + "#" + delete.contentOffset(), delete));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        List<Snapshot> snapshots = StreamSupport.stream(table.snapshots().spliterator(), false)
                .sorted(Comparator.comparingLong(Snapshot::sequenceNumber)).toList();
        int manifests = table.currentSnapshot() == null ? 0 : table.currentSnapshot().allManifests(table.io()).size();
        long target = PropertyUtil.propertyAsLong(table.properties(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
        return new TableFacts(table, data, new ArrayList<>(deletes.values()), snapshots, manifests, target);
    }

    long smallFiles() {
        return dataFiles.stream().filter(file -> file.fileSizeInBytes() < targetFileBytes / 4).count();
    }

    long oversizedFiles() {
        return dataFiles.stream().filter(file -> file.fileSizeInBytes() > targetFileBytes * 2).count();
    }

    double smallShare() {
        return dataFiles.isEmpty() ? 0 : (double) smallFiles() / dataFiles.size();
    }

    long dataBytes() {
        return dataFiles.stream().mapToLong(DataFile::fileSizeInBytes).sum();
    }

    long dataRecords() {
        return dataFiles.stream().mapToLong(DataFile::recordCount).sum();
    }

    long equalityDeleteFiles() {
        return deleteFiles.stream().filter(file -> file.content() == FileContent.EQUALITY_DELETES).count();
    }

    long positionDeleteFiles() {
        return deleteFiles.stream().filter(file -> file.content() == FileContent.POSITION_DELETES).count();
    }

    long deletionVectors() {
        return deleteFiles.stream().filter(file -> file.format() == FileFormat.PUFFIN).count();
    }

    double deleteRatio() {
        long deleted = deleteFiles.stream().mapToLong(DeleteFile::recordCount).sum();
        return (double) deleted / dataRecords();
    }

    /** Data files per partition, as the partition-skew check counts them (partitions holding data files). */
    Map<String, Long> filesPerPartition() {
        return dataFiles.stream().collect(Collectors.groupingBy(file -> file.specId() + ":" + file.partition(),
                Collectors.counting()));
    }

    double partitionSkew() {
        Map<String, Long> perPartition = filesPerPartition();
        double mean = perPartition.values().stream().mapToLong(Long::longValue).average().orElse(0);
        long max = perPartition.values().stream().mapToLong(Long::longValue).max().orElse(0);
        return max / mean;
    }

    /**
     * Partitions whose data, compacted into one file, would still make a small file: what is left
     * of the small-files check after optimize (it needs 8 small files to be evaluated at all).
     */
    long partitionsSmallAfterCompaction() {
        return dataFiles.stream().collect(Collectors.groupingBy(file -> file.specId() + ":" + file.partition(),
                        Collectors.summingLong(DataFile::fileSizeInBytes)))
                .values().stream().filter(bytes -> bytes < targetFileBytes / 4).count();
    }

    Duration oldestSnapshotAge(Instant now) {
        return Duration.between(Instant.ofEpochMilli(snapshots.get(0).timestampMillis()), now);
    }

    /** Files under the table's data folder that the current snapshot does not reference. */
    List<Path> unreferencedDataFolderFiles() {
        Set<String> referenced = Stream.concat(dataFiles.stream().map(DataFile::location),
                        deleteFiles.stream().map(DeleteFile::location))
                .map(TableFacts::localPath).map(Path::toString).collect(Collectors.toSet());
        Path dataFolder = localPath(table.location()).resolve("data");
        try (Stream<Path> files = Files.walk(dataFolder)) {
            return files.filter(Files::isRegularFile).filter(path -> !referenced.contains(path.toString())).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path localPath(String location) {
        return location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
    }
}
