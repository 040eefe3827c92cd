package dev.cryo.bench.harness;

import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Writes one benchmark table the way its class of writer does, from a seeded generator, and
 * keeps the rows it should hold (so the two copies of a table get the same rows, and a copy's
 * fingerprint can be checked against what was written).
 */
public final class Workload {

    /** Day 0 of every table's partitions. */
    public static final OffsetDateTime FIRST_DAY = OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    private static final int CATEGORIES = 8;
    private static final int PAYLOAD_CHARS = 100;

    private final Table table;
    private final TableWriter writer;
    private final Random random;
    private final Map<Long, Record> rows = new LinkedHashMap<>();
    private final Map<Long, Integer> dayOf = new LinkedHashMap<>();
    private long nextId = 1;

    public Workload(Table table, long seed) {
        this.table = table;
        this.writer = new TableWriter(table);
        this.random = new Random(seed);
    }

    public Table table() {
        return table;
    }

    /** One commit of one file of {@code count} new rows in the given day partition. */
    public void append(int day, int count) {
        List<Record> batch = newRows(day, count);
        writer.append(batch);
        remember(batch, day);
    }

    /**
     * Writes the same fragmented table into two copies built from the same seed, batch by batch
     * ({@code perCommit} files per commit from day 0), so that the contenders start from identical
     * files; returns the seconds it took.
     */
    public static long appendToBoth(Workload first, Workload second, int files, int perCommit, int rowsPerFile,
                                    int days) {
        return appendToAll(List.of(first, second), files, perCommit, rowsPerFile, days);
    }

    /** {@link #appendToBoth} for any number of copies. */
    public static long appendToAll(List<Workload> copies, int files, int perCommit, int rowsPerFile, int days) {
        long start = System.nanoTime();
        for (int written = 0; written < files; written += perCommit) {
            int batch = Math.min(perCommit, files - written);
            for (Workload copy : copies) {
                copy.appendFiles(batch, rowsPerFile, days, 0);
            }
        }
        return (System.nanoTime() - start) / 1_000_000_000L;
    }

    /** One commit of {@code files} files of {@code rowsPerFile} rows, spread over the given days in turn. */
    public void appendFiles(int files, int rowsPerFile, int days, int firstDay) {
        List<DataFile> written = new ArrayList<>();
        for (int file = 0; file < files; file++) {
            int day = firstDay + file % days;
            List<Record> batch = newRows(day, rowsPerFile);
            written.addAll(writer.writeDataFiles(batch));
            remember(batch, day);
        }
        table.refresh();
        var append = table.newAppend();
        written.forEach(append::appendFile);
        append.commit();
    }

    /**
     * A MERGE as CDC writers commit it: new versions of {@code updates} existing rows of one day
     * (equality deletes on id + the new rows) and {@code inserts} new rows in that day, one row delta.
     */
    public void merge(int day, int updates, int inserts) {
        List<Long> candidates = dayOf.entrySet().stream().filter(entry -> entry.getValue() == day)
                .map(Map.Entry::getKey).toList();
        List<Long> chosen = new ArrayList<>();
        for (int i = 0; i < updates && !candidates.isEmpty(); i++) {
            long id = candidates.get(random.nextInt(candidates.size()));
            if (!chosen.contains(id)) {
                chosen.add(id);
            }
        }
        List<Record> versions = new ArrayList<>();
        for (long id : chosen) {
            versions.addAll(SampleTables.events(random, id, 1, FIRST_DAY.plusDays(day).plusHours(random.nextInt(23)),
                    Duration.ofSeconds(1), CATEGORIES, PAYLOAD_CHARS));
        }
        List<Record> added = newRows(day, inserts);
        List<DeleteFile> deletes = writer.writeEqualityDeletes(versions, "id");
        List<Record> all = new ArrayList<>(versions);
        all.addAll(added);
        List<DataFile> files = all.isEmpty() ? List.of() : writer.writeDataFiles(all);
        table.refresh();
        RowDelta delta = table.newRowDelta();
        files.forEach(delta::addRows);
        deletes.forEach(delta::addDeletes);
        delta.commit();
        remember(all, day);
    }

    /** What the table should hold: every row written, the newest version of each id. */
    public Fingerprint expected() {
        return Fingerprints.of(SampleTables.EVENTS, rows.values());
    }

    /** What the table holds now. */
    public Fingerprint actual() {
        table.refresh();
        return Fingerprints.ofTable(table);
    }

    /** The current snapshot id (null when the table is empty). */
    public Long currentSnapshotId() {
        table.refresh();
        Snapshot snapshot = table.currentSnapshot();
        return snapshot == null ? null : snapshot.snapshotId();
    }

    public Collection<Record> rows() {
        return rows.values();
    }

    private List<Record> newRows(int day, int count) {
        List<Record> batch = SampleTables.events(random, nextId, count, FIRST_DAY.plusDays(day), Duration.ofHours(23),
                CATEGORIES, PAYLOAD_CHARS);
        nextId += count;
        return batch;
    }

    private void remember(List<Record> batch, int day) {
        for (Record row : batch) {
            long id = (Long) row.getField("id");
            rows.put(id, row);
            dayOf.put(id, day);
        }
    }
}
