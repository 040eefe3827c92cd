package dev.cryo.executor.iceberg;

import dev.cryo.executor.iceberg.DeletionSafetyPropertiesTest.Step;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.GenericBlobMetadata;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.PartitionStatsHandler;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.puffin.Blob;
import org.apache.iceberg.puffin.Puffin;
import org.apache.iceberg.puffin.PuffinWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

import static dev.cryo.executor.iceberg.DeletionSafetyPropertiesTest.NAMESPACE;
import static dev.cryo.executor.iceberg.DeletionSafetyPropertiesTest.NESTED_TABLES;
import static dev.cryo.executor.iceberg.DeletionSafetyPropertiesTest.SPELLED_FILES;
import static dev.cryo.executor.iceberg.DeletionSafetyPropertiesTest.identifier;

/** Runs a {@link DeletionSafetyPropertiesTest} history against a real table, as writers would. */
final class HistoryWriter {

    private final Table table;
    private final Random random;
    private final TableWriter writer;
    private final Catalog catalog;
    private final List<Table> nested;
    private final Set<String> filesWithDeletes = new HashSet<>();
    private long nextId = 1;

    HistoryWriter(Table table, Random random, Catalog catalog, List<Table> nested) {
        this.table = table;
        this.random = random;
        this.writer = new TableWriter(table);
        this.catalog = catalog;
        this.nested = nested;
    }

    void run(List<Step> steps, Map<String, Duration> orphans) throws IOException {
        for (Step step : steps) {
            table.refresh();
            if (step instanceof Step.Append append) {
                writer.append(rows(append.rows()));
            } else if (step instanceof Step.Overwrite) {
                overwrite();
            } else if (step instanceof Step.PositionDelete) {
                positionDelete();
            } else if (step instanceof Step.EqualityDelete) {
                equalityDelete();
            } else if (step instanceof Step.BranchAppend branch) {
                branchAppend(branch.branch());
            } else if (step instanceof Step.Tag) {
                tag();
            } else if (step instanceof Step.Statistics) {
                statistics();
            } else if (step instanceof Step.PartitionStatistics) {
                partitionStatistics();
            } else if (step instanceof Step.WriterExpiry) {
                table.expireSnapshots().retainLast(2).expireOlderThan(System.currentTimeMillis()).commit();
            } else if (step instanceof Step.Orphan orphan) {
                orphans.put(plant(orphan.inMetadata()), orphan.age());
            } else if (step instanceof Step.Nested inside) {
                nest(inside.dataPath());
            } else if (step instanceof Step.Spelled spelled) {
                appendSpelled(spelled.infix());
            }
        }
    }

    private List<Record> rows(int count) {
        List<Record> rows = SampleTables.events(random, nextId, count, TestTables.START, Duration.ofDays(3), 4, 30);
        nextId += count;
        return rows;
    }

    private DataFile someDataFile() {
        List<DataFile> files = TestTables.dataFiles(table);
        return files.isEmpty() ? null : files.get(random.nextInt(files.size()));
    }

    /** Copy-on-write: one data file replaced by a new one. */
    private void overwrite() {
        DataFile old = someDataFile();
        if (old == null || filesWithDeletes.contains(old.location())) {
            return;
        }
        OverwriteFiles overwrite = table.newOverwrite().deleteFile(old);
        writer.writeDataFiles(rows(1 + random.nextInt(20))).forEach(overwrite::addFile);
        overwrite.commit();
    }

    /** Merge-on-read: position deletes (v2) or a deletion vector (v3) on a file that has none yet. */
    private void positionDelete() {
        DataFile file = someDataFile();
        if (file == null || filesWithDeletes.contains(file.location())) {
            return;
        }
        commit(writer.writePositionDeletes(file, 0));
        filesWithDeletes.add(file.location());
    }

    private void equalityDelete() {
        DataFile file = someDataFile();
        if (file == null) {
            return;
        }
        Record key = GenericRecord.create(table.schema().select("id"));
        key.setField("id", 1 + (long) random.nextInt((int) Math.max(1, nextId)));
        commit(writer.writeEqualityDeletes(file.partition(), List.of(key), "id"));
    }

    /**
     * A row delta validated from the current snapshot, as writers commit them: without a starting
     * snapshot, Iceberg's v3 validation of added deletion vectors walks the whole history and fails
     * once the writer's own expiry has cut it.
     */
    private void commit(DeleteFile delete) {
        table.refresh();
        table.newRowDelta().addDeletes(delete).validateFromSnapshot(table.currentSnapshot().snapshotId()).commit();
    }

    private void branchAppend(String branch) {
        if (table.currentSnapshot() == null) {
            return;
        }
        if (!table.refs().containsKey(branch)) {
            table.manageSnapshots().createBranch(branch, table.currentSnapshot().snapshotId()).commit();
        }
        var append = table.newAppend().toBranch(branch);
        writer.writeDataFiles(rows(1 + random.nextInt(20))).forEach(append::appendFile);
        append.commit();
    }

    private void tag() {
        if (table.currentSnapshot() != null) {
            table.manageSnapshots().createTag("tag-" + UUID.randomUUID(), table.currentSnapshot().snapshotId()).commit();
        }
    }

    private void statistics() throws IOException {
        Snapshot snapshot = table.currentSnapshot();
        if (snapshot == null) {
            return;
        }
        String location = table.location() + "/metadata/stats-" + UUID.randomUUID() + ".puffin";
        OutputFile output = table.io().newOutputFile(location);
        StatisticsFile statistics;
        try (PuffinWriter puffin = Puffin.write(output).createdBy("cryo deletion safety test").build()) {
            puffin.add(new Blob("test-blob", List.of(1), snapshot.snapshotId(), snapshot.sequenceNumber(),
                    ByteBuffer.wrap(new byte[] {1, 2, 3})));
            puffin.finish();
            statistics = new GenericStatisticsFile(snapshot.snapshotId(), location, puffin.fileSize(),
                    puffin.footerSize(), GenericBlobMetadata.from(puffin.writtenBlobsMetadata()));
        }
        table.updateStatistics().setStatistics(statistics).commit();
    }

    private void partitionStatistics() throws IOException {
        if (table.currentSnapshot() == null) {
            return;
        }
        PartitionStatisticsFile file = PartitionStatsHandler.computeAndWriteStatsFile(table);
        if (file != null) {
            table.updatePartitionStatistics().setPartitionStatistics(file).commit();
        }
    }

    /** A table nested in this one's location, as an archive table made weeks ago (its files are back-dated too). */
    private void nest(boolean dataPath) {
        String name = identifier(table).name() + "_in_" + nested.size();
        String folder = table.location() + "/" + (dataPath ? "guest-data-" : "archive-") + nested.size();
        var builder = catalog.buildTable(TableIdentifier.of(NAMESPACE, name), SampleTables.EVENTS)
                .withPartitionSpec(PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build());
        Table other = (dataPath ? builder.withProperty(TableProperties.WRITE_DATA_LOCATION, folder)
                : builder.withLocation(folder)).create();
        new TableWriter(other).append(rows(1 + random.nextInt(30)));
        nested.add(other);
        NESTED_TABLES.incrementAndGet();
    }

    /**
     * A data file committed under another spelling of its path: on S3 the object's key is that
     * spelling (keys are opaque), on local disk the file system resolves it to the file written.
     */
    private void appendSpelled(String infix) throws IOException {
        var append = table.newAppend();
        for (DataFile written : writer.writeDataFiles(rows(1 + random.nextInt(20)))) {
            String folder = written.location().substring(0, written.location().lastIndexOf('/'));
            String spelled = folder + infix + written.location().substring(folder.length() + 1);
            if (spelled.startsWith("s3")) {
                try (var in = table.io().newInputFile(written.location()).newStream();
                     PositionOutputStream out = table.io().newOutputFile(spelled).create()) {
                    in.transferTo(out);
                }
                table.io().deleteFile(written.location());
            }
            append.appendFile(org.apache.iceberg.DataFiles.builder(table.spec()).copy(written).withPath(spelled).build());
            SPELLED_FILES.incrementAndGet();
        }
        append.commit();
    }

    private String plant(boolean inMetadata) {
        String location = table.location() + (inMetadata ? "/metadata/" + UUID.randomUUID() + "-m0.avro"
                : "/data/event_ts_day=2026-11-01/00000-0-" + UUID.randomUUID() + "-00001.parquet");
        try (PositionOutputStream out = table.io().newOutputFile(location).create()) {
            out.write("left behind by a failed job".getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return location;
    }
}
