package dev.cryo.bench.scenario;

import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.Lakehouse;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Scenario 8's tables: the fragmented source table, and byte-for-byte copies of it, one per engine. */
final class EngineTables {

    private static final OffsetDateTime FIRST_DAY = OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    /** The source table's name in its namespace. */
    static final String SOURCE = "source";

    /**
     * {@code files} small files: each batch spreads {@code rowsPerFile × partitions} events evenly over the days and
     * writes one file per day; a commit every {@code filesPerCommit} files, as a streaming writer would.
     */
    static CompactionEngines.Source build(Lakehouse lakehouse, String namespace, long target, int files, int partitions, int rowsPerFile,
                        int payloadChars, int filesPerCommit) {
        Table table = lakehouse.create(namespace, SOURCE, target, false);
        TableWriter writer = new TableWriter(table);
        Random random = new Random(BenchContext.seed(0, 8));
        long count = 0;
        long sum = 0;
        List<DataFile> pending = new ArrayList<>();
        long nextId = 0;
        for (int written = 0; written < files; written += partitions) {
            List<Record> rows = SampleTables.events(random, nextId, rowsPerFile * partitions, FIRST_DAY,
                    Duration.ofDays(partitions), 16, payloadChars);
            nextId += rows.size();
            Fingerprint batch = Fingerprints.of(SampleTables.EVENTS, rows);
            count += batch.rows();
            sum += batch.hash();
            pending.addAll(writer.writeDataFiles(rows));
            if (pending.size() >= filesPerCommit || written + partitions >= files) {
                AppendFiles append = table.newAppend();
                pending.forEach(append::appendFile);
                append.commit();
                pending.clear();
            }
        }
        table.refresh();
        long dataFiles = 0;
        long bytes = 0;
        long records = 0;
        for (DataFile file : liveFiles(table)) {
            dataFiles++;
            bytes += file.fileSizeInBytes();
            records += file.recordCount();
        }
        return new CompactionEngines.Source(table, dataFiles, bytes, records, new Fingerprint(count, sum));
    }

    /** A new table of the source's schema and spec holding byte-for-byte copies of its data files. */
    static Table copy(Lakehouse lakehouse, CompactionEngines.Source source, String namespace, String name, long target) {
        Table copy = lakehouse.create(namespace, name, target, false);
        Path from = localPath(source.table().location());
        Path to = localPath(copy.location());
        AppendFiles append = copy.newAppend();
        long files = 0;
        long bytes = 0;
        long records = 0;
        for (DataFile file : liveFiles(source.table())) {
            Path original = localPath(file.location());
            if (!original.startsWith(from)) {
                throw new IllegalStateException("Cannot copy " + original + ": it is outside the table's location " + from);
            }
            Path copied = to.resolve(from.relativize(original));
            try {
                Files.createDirectories(copied.getParent());
                Files.copy(original, copied);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot copy " + original + " to " + copied + ": " + e.getMessage(), e);
            }
            append.appendFile(DataFiles.builder(copy.spec()).copy(file).withPath(copied.toUri().toString()).build());
            files++;
            bytes += file.fileSizeInBytes();
            records += file.recordCount();
        }
        append.commit();
        if (files != source.dataFiles() || bytes != source.dataBytes() || records != source.records()) {
            throw new IllegalStateException("Cannot copy the source table: copied " + files + " files, " + bytes
                    + " bytes, " + records + " rows of " + source.dataFiles() + ", " + source.dataBytes() + ", "
                    + source.records());
        }
        copy.refresh();
        return copy;
    }

    private static List<DataFile> liveFiles(Table table) {
        List<DataFile> files = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> files.add(task.file().copyWithoutStats()));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the data files of " + table.name() + ": " + e.getMessage(), e);
        }
        return files;
    }

    static long dataFiles(Table table) {
        return liveFiles(table).size();
    }

    private static Path localPath(String location) {
        return location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
    }

    private EngineTables() {
    }
}
