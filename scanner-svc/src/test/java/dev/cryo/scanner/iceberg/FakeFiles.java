package dev.cryo.scanner.iceberg;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.AppendFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Large tables made quickly for scanner tests and the benchmark: manifests written directly
 * with data file entries whose files do not exist. A metadata-only scan never opens them, so
 * the table is as real as it gets for the scanner (and its manifests are real Avro files).
 */
public final class FakeFiles {

    private FakeFiles() {
    }

    /**
     * Appends, in one commit, {@code manifests} manifests of {@code filesPerManifest} files each;
     * manifest {@code m} holds files of partition {@code firstPartition + m % partitions}
     * (a day-partitioned table: the partition value is the day number).
     */
    public static void appendManifests(Table table, int manifests, int filesPerManifest, int firstPartition,
                                       int partitions, Random random) {
        PartitionSpec spec = table.spec();
        AppendFiles append = table.newFastAppend();
        for (int m = 0; m < manifests; m++) {
            int partition = firstPartition + m % partitions;
            List<DataFile> files = new ArrayList<>(filesPerManifest);
            for (int f = 0; f < filesPerManifest; f++) {
                files.add(dataFile(table, spec, partition, random));
            }
            append.appendManifest(writeManifest(table, files));
        }
        append.commit();
    }

    /** A data file entry of the day partition {@code day}, between 1 KiB and 300 MiB. */
    public static DataFile dataFile(Table table, PartitionSpec spec, int day, Random random) {
        PartitionData partition = new PartitionData(spec.partitionType());
        if (!spec.isUnpartitioned()) {
            partition.set(0, day);
        }
        long size = 1024 + (long) (random.nextDouble() * random.nextDouble() * 300L * 1024 * 1024);
        DataFiles.Builder builder = DataFiles.builder(spec)
                .withPath(table.location() + "/data/" + day + "/" + UUID.randomUUID() + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(size)
                .withRecordCount(Math.max(1, size / 100));
        if (!spec.isUnpartitioned()) {
            builder.withPartition(partition);
        }
        return builder.build();
    }

    static ManifestFile writeManifest(Table table, List<DataFile> files) {
        ManifestWriter<DataFile> writer = ManifestFiles.write(TableUtil.formatVersion(table), table.spec(),
                table.io().newOutputFile(table.location() + "/metadata/" + UUID.randomUUID() + "-m0.avro"), null);
        try (writer) {
            files.forEach(writer::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toManifestFile();
    }
}
