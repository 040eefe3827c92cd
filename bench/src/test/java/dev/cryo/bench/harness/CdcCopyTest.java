package dev.cryo.bench.harness;

import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.SampleTables;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Scenario 3's table and writer on real Iceberg tables (the in-memory catalog and file IO of iceberg-core). */
class CdcCopyTest {

    private InMemoryCatalog catalog;

    @BeforeEach
    void catalog() {
        catalog = new InMemoryCatalog();
        catalog.initialize("cdc", Map.of());
        catalog.createNamespace(Namespace.of("ns"));
    }

    @AfterEach
    void close() throws IOException {
        catalog.close();
    }

    @Test
    void theExpectedFingerprintIsTheSumOfTheNewestVersionOfEveryRow() {
        CdcRows rows = new CdcRows(7, 3);
        Map<Long, Record> newest = new LinkedHashMap<>();
        for (int day = 0; day < 3; day++) {
            rows.insert(day, 50).forEach(row -> newest.put((Long) row.getField("id"), row));
        }
        for (int merge = 0; merge < 20; merge++) {
            CdcRows.Change change = rows.merge(merge % 3, 10, 5);
            assertThat(change.updated()).hasSize(10);
            change.rows().forEach(row -> newest.put((Long) row.getField("id"), row));
        }

        assertThat(rows.expected()).isEqualTo(Fingerprints.of(SampleTables.EVENTS, newest.values()));
        assertThat(rows.rows()).isEqualTo(150 + 20 * 5);
    }

    @Test
    void bothCopiesHoldTheWritersRowsAfterMergesWithPositionDeletes() {
        CdcRows rows = new CdcRows(11, 2);
        CdcCopy first = new CdcCopy(create("first"));
        CdcCopy second = new CdcCopy(create("second"));
        long bytes = CdcCopy.build(rows, List.of(first, second), 200_000, 60_000);
        assertThat(bytes).isGreaterThanOrEqualTo(200_000);

        for (int merge = 0; merge < 6; merge++) {
            CdcRows.Change change = rows.merge(merge % 2, 8, 4);
            assertThat(first.merge(change)).isZero();
            assertThat(second.merge(change)).isZero();
        }

        assertThat(first.actual()).isEqualTo(rows.expected());
        assertThat(second.actual()).isEqualTo(rows.expected());
        assertThat(first.merges()).isEqualTo(6);
        assertThat(first.conflicts()).isZero();
        List<DeleteFile> deletes = deleteFiles(first.table());
        assertThat(deletes).hasSize(6).allMatch(file -> file.content() == FileContent.POSITION_DELETES);
        assertThat(dataLocations(second.table())).noneMatch(location -> location.contains("/first/"));
    }

    @Test
    void aMergeAfterACompactionFindsTheRowsInTheNewFiles() {
        CdcRows rows = new CdcRows(13, 1);
        CdcCopy copy = new CdcCopy(create("compacted"));
        CdcCopy.build(rows, List.of(copy), 100_000, 50_000);
        copy.merge(rows.merge(0, 5, 0));
        // a compaction that replaces every data file with one holding the live rows
        Table table = copy.table();
        table.refresh();
        List<Record> live = new ArrayList<>();
        try (CloseableIterable<Record> read = org.apache.iceberg.data.IcebergGenerics.read(table).build()) {
            read.forEach(row -> live.add(row.copy()));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        Set<DataFile> replaced = new HashSet<>();
        Set<DeleteFile> deletes = new HashSet<>(deleteFiles(table));
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> replaced.add(task.file()));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        List<DataFile> written = new dev.cryo.iceberg.fixtures.TableWriter(table).writeDataFiles(live);
        var rewrite = table.newRewrite().validateFromSnapshot(table.currentSnapshot().snapshotId());
        replaced.forEach(rewrite::deleteFile);
        deletes.forEach(rewrite::deleteFile);
        written.forEach(rewrite::addFile);
        rewrite.commit();
        assertThat(deleteFiles(table)).isEmpty();

        copy.merge(rows.merge(0, 5, 2));

        assertThat(copy.actual()).isEqualTo(rows.expected());
        assertThat(deleteFiles(copy.table())).hasSize(1);
    }

    private Table create(String name) {
        return catalog.createTable(TableIdentifier.of("ns", name), SampleTables.EVENTS, Lakehouse.DAY_SPEC,
                "memory://warehouse/" + name, Map.of(TableProperties.FORMAT_VERSION, "2"));
    }

    private static List<DeleteFile> deleteFiles(Table table) {
        table.refresh();
        Set<String> seen = new HashSet<>();
        List<DeleteFile> deletes = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> task.deletes().stream().filter(file -> seen.add(file.location())).forEach(deletes::add));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return deletes;
    }

    private static List<String> dataLocations(Table table) {
        table.refresh();
        List<String> locations = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> locations.add(task.file().location()));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return locations;
    }
}
