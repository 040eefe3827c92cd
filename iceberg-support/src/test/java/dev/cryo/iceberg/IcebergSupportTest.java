package dev.cryo.iceberg;

import dev.cryo.contracts.TableId;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Catalogs, fixtures and fingerprints on real tables: a JDBC catalog on the real PostgreSQL. */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class IcebergSupportTest {

    @TempDir
    static Path warehouse;

    static CatalogRegistry registry;
    static final String CATALOG = "support_" + UUID.randomUUID().toString().substring(0, 8);
    static final OffsetDateTime START = OffsetDateTime.of(2026, 11, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    @BeforeAll
    static void createCatalog() {
        registry = CatalogRegistry.create(Map.of(CATALOG, LocalCatalogs.jdbc(Infrastructure.jdbcUrl(),
                Infrastructure.dbUser(), Infrastructure.dbPassword(), "cryo_catalog_test", warehouse)));
        ((SupportsNamespaces) registry.catalog(CATALOG)).createNamespace(Namespace.of("sales"));
        ((SupportsNamespaces) registry.catalog(CATALOG)).createNamespace(Namespace.of("sales", "emea"));
    }

    @AfterAll
    static void close() throws Exception {
        registry.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void fingerprintsFollowTheRowsWhateverTheFileLayout(int formatVersion) {
        Table table = create("layout_v" + formatVersion, formatVersion);
        List<Record> rows = new ArrayList<>();
        Random random = new Random(7);
        for (int commit = 0; commit < 4; commit++) {
            List<Record> batch = SampleTables.events(random, commit * 100L, 100, START, Duration.ofDays(3), 5, 40);
            new TableWriter(table).append(batch);
            rows.addAll(batch);
        }
        table.refresh();

        Fingerprint table4Commits = Fingerprints.ofTableData(table);
        List<Record> shuffled = new ArrayList<>(rows);
        java.util.Collections.shuffle(shuffled, new Random(1));

        assertThat(table4Commits).isEqualTo(Fingerprints.of(SampleTables.EVENTS, shuffled));
        assertThat(table4Commits.rows()).isEqualTo(400);
        assertThat(table.currentSnapshot().allManifests(table.io())).hasSize(4);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void positionDeletesRemoveExactlyTheirRows(int formatVersion) {
        Table table = create("posdel_v" + formatVersion, formatVersion);
        List<Record> rows = SampleTables.events(new Random(3), 0, 50, START, Duration.ofHours(1), 3, 10);
        DataFile file = new TableWriter(table).append(rows).get(0);
        Fingerprint before = Fingerprints.ofTableData(table);

        DeleteFile deletes = new TableWriter(table).writePositionDeletes(file, 0, 7, 49);
        new TableWriter(table).commitDeletes(deletes);
        table.refresh();

        Fingerprint deleted = Fingerprints.of(SampleTables.EVENTS, List.of(rows.get(0), rows.get(7), rows.get(49)));
        assertThat(Fingerprints.ofTableData(table)).isEqualTo(before.minus(deleted));
        assertThat(deletes.content()).isEqualTo(FileContent.POSITION_DELETES);
        assertThat(deletes.format().name()).isEqualTo(formatVersion >= 3 ? "PUFFIN" : "PARQUET");
    }

    @Test
    void equalityDeletesRemoveMatchingRows() {
        Table table = create("eqdel", 2);
        TableWriter writer = new TableWriter(table);
        List<Record> rows = SampleTables.events(new Random(5), 0, 30, START, Duration.ofHours(1), 3, 10);
        writer.append(rows);
        Fingerprint before = Fingerprints.ofTable(table);

        Record key = org.apache.iceberg.data.GenericRecord.create(SampleTables.EVENTS.select("id"));
        key.setField("id", 12L);
        DeleteFile deletes = writer.writeEqualityDeletes(writer.partitionOf(rows.get(12)), List.of(key), "id");
        writer.commitDeletes(deletes);
        table.refresh();

        assertThat(Fingerprints.ofTable(table)).isEqualTo(before.minus(Fingerprints.of(SampleTables.EVENTS, List.of(rows.get(12)))));
        assertThat(deletes.content()).isEqualTo(FileContent.EQUALITY_DELETES);
    }

    @Test
    void aChangedValueChangesTheFingerprint() {
        List<Record> rows = SampleTables.events(new Random(9), 0, 10, START, Duration.ofHours(1), 3, 10);
        Fingerprint original = Fingerprints.of(SampleTables.EVENTS, rows);
        Record changed = rows.get(3).copy();
        changed.setField("quantity", ((Integer) changed.getField("quantity")) + 1);
        List<Record> altered = new ArrayList<>(rows);
        altered.set(3, changed);

        assertThat(Fingerprints.of(SampleTables.EVENTS, altered)).isNotEqualTo(original);
        assertThat(Fingerprints.of(SampleTables.EVENTS, altered).rows()).isEqualTo(original.rows());
    }

    @Test
    void aFingerprintWithLineageDiffersWhenOnlyARowsLineageDiffers() {
        Schema schema = MetadataColumns.schemaWithRowLineage(SampleTables.EVENTS);
        List<Record> rows = new ArrayList<>();
        long rowId = 100;
        for (Record data : SampleTables.events(new Random(13), 0, 10, START, Duration.ofHours(1), 3, 10)) {
            Record row = GenericRecord.create(schema);
            for (int i = 0; i < SampleTables.EVENTS.columns().size(); i++) {
                row.set(i, data.get(i));
            }
            row.setField(MetadataColumns.ROW_ID.name(), rowId++);
            row.setField(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name(), 4L);
            rows.add(row);
        }
        Fingerprint original = Fingerprints.of(schema, rows);
        List<Record> otherRowId = copyChanging(rows, 6, MetadataColumns.ROW_ID.name(), 999L);
        List<Record> otherSequence = copyChanging(rows, 6, MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name(), 5L);
        List<Record> noRowId = copyChanging(rows, 6, MetadataColumns.ROW_ID.name(), null);
        // two rows swapping their ids is a different table too: each id names one row's history
        List<Record> swapped = copyChanging(copyChanging(rows, 1, MetadataColumns.ROW_ID.name(), 102L),
                2, MetadataColumns.ROW_ID.name(), 101L);

        assertThat(Fingerprints.of(schema, copyChanging(rows, 6, MetadataColumns.ROW_ID.name(), 106L))).isEqualTo(original);
        assertThat(Fingerprints.of(schema, otherRowId)).isNotEqualTo(original);
        assertThat(Fingerprints.of(schema, otherRowId).rows()).isEqualTo(original.rows());
        assertThat(Fingerprints.of(schema, otherSequence)).isNotEqualTo(original);
        assertThat(Fingerprints.of(schema, noRowId)).isNotEqualTo(original);
        assertThat(Fingerprints.of(schema, swapped)).isNotEqualTo(original);
        assertThat(Fingerprints.of(SampleTables.EVENTS, otherRowId)).isEqualTo(Fingerprints.of(SampleTables.EVENTS, rows));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void fromFormatV3OnATableFingerprintCoversRowLineage(int formatVersion) throws IOException {
        Table table = create("lineage_v" + formatVersion, formatVersion);
        TableWriter writer = new TableWriter(table);
        List<Record> rows = new ArrayList<>();
        Random random = new Random(17);
        for (int commit = 0; commit < 3; commit++) {
            List<Record> batch = SampleTables.events(random, commit * 100L, 40, START, Duration.ofDays(2), 3, 10);
            writer.append(batch);
            rows.addAll(batch);
        }
        table.refresh();
        Fingerprint before = Fingerprints.ofTable(table);
        Fingerprint dataBefore = Fingerprints.ofTableData(table);

        // A rewrite that writes the same rows without their lineage, as a careless compaction would:
        // the new files re-assign every _row_id and _last_updated_sequence_number.
        List<DataFile> replaced = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> replaced.add(task.file()));
        }
        List<DataFile> rewritten = writer.writeDataFiles(rows);
        RewriteFiles rewrite = table.newRewrite();
        replaced.forEach(rewrite::deleteFile);
        rewritten.forEach(rewrite::addFile);
        rewrite.commit();
        table.refresh();

        assertThat(Fingerprints.schemaOf(table).columns()).hasSize(formatVersion >= 3 ? 8 : 6);
        assertThat(Fingerprints.ofTableData(table)).isEqualTo(dataBefore);
        assertThat(dataBefore).isEqualTo(Fingerprints.of(SampleTables.EVENTS, rows));
        if (formatVersion >= 3) {
            assertThat(before).isNotEqualTo(dataBefore);
            assertThat(Fingerprints.ofTable(table)).isNotEqualTo(before);
            assertThat(Fingerprints.ofTable(table).rows()).isEqualTo(before.rows());
        } else {
            assertThat(before).isEqualTo(dataBefore);
            assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
        }
    }

    private static List<Record> copyChanging(List<Record> rows, int index, String column, Object value) {
        List<Record> copy = new ArrayList<>(rows);
        Record changed = rows.get(index).copy();
        changed.setField(column, value);
        copy.set(index, changed);
        return copy;
    }

    @Test
    void aRowHashesTheSameWhicheverJavaTypeCarriesItsValues() {
        Types.StructType struct = Types.StructType.of(
                Types.NestedField.required(1, "event_ts", Types.TimestampType.withZone()),
                Types.NestedField.optional(2, "city", Types.StringType.get()),
                Types.NestedField.optional(3, "street", Types.StringType.get()));
        OffsetDateTime beforeEpoch = OffsetDateTime.of(1969, 12, 31, 23, 59, 59, 123_456_000, ZoneOffset.ofHours(2));
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, beforeEpoch.toInstant());

        long asObjects = Fingerprints.hashRow(struct, row(struct, beforeEpoch, "Zürich", "Bahnhofstrasse"));
        long asInternalValues = Fingerprints.hashRow(struct, row(struct, micros, new StringBuilder("Zürich"), "Bahnhofstrasse"));

        assertThat(asInternalValues).isEqualTo(asObjects);
        assertThat(Fingerprints.hashRow(struct, row(struct, micros + 1, "Zürich", "Bahnhofstrasse"))).isNotEqualTo(asObjects);
        assertThat(Fingerprints.hashRow(struct, row(struct, micros, "Zurich", "Bahnhofstrasse"))).isNotEqualTo(asObjects);
        // the same characters split differently between two columns are another row
        assertThat(Fingerprints.hashRow(struct, row(struct, micros, "ZürichB", "ahnhofstrasse"))).isNotEqualTo(asObjects);
        assertThat(Fingerprints.hashRow(struct, row(struct, micros, null, "Bahnhofstrasse")))
                .isNotEqualTo(Fingerprints.hashRow(struct, row(struct, micros, "", "Bahnhofstrasse")));
    }

    @Test
    void everyTemporalTypeHashesTheSameAsJavaTimeObjectsAndAsInternalValues() {
        // A rewrite reads and writes Iceberg's internal representation; Fingerprints.ofTable reads java.time
        // objects: both must give one hash, or a table's fingerprint would depend on who read it.
        Types.StructType struct = Types.StructType.of(
                Types.NestedField.required(1, "day", Types.DateType.get()),
                Types.NestedField.required(2, "at", Types.TimeType.get()),
                Types.NestedField.required(3, "local_ts", Types.TimestampType.withoutZone()),
                Types.NestedField.required(4, "ts_ns", Types.TimestampNanoType.withZone()));
        java.time.LocalDate day = java.time.LocalDate.of(1969, 7, 20);
        java.time.LocalTime at = java.time.LocalTime.of(20, 17, 40, 123_456_000);
        java.time.LocalDateTime local = java.time.LocalDateTime.of(2026, 12, 1, 11, 30, 5, 654_321_000);
        OffsetDateTime nanos = OffsetDateTime.of(2026, 12, 1, 11, 30, 5, 654_321_987, ZoneOffset.ofHours(-5));

        long asObjects = Fingerprints.hashRow(struct, row(struct, day, at, local, nanos));
        long asInternalValues = Fingerprints.hashRow(struct, row(struct, (int) day.toEpochDay(), at.toNanoOfDay() / 1000,
                ChronoUnit.MICROS.between(Instant.EPOCH, local.toInstant(ZoneOffset.UTC)),
                ChronoUnit.NANOS.between(Instant.EPOCH, nanos.toInstant())));

        assertThat(asInternalValues).isEqualTo(asObjects);
        assertThat(Fingerprints.hashRow(struct, row(struct, (int) day.toEpochDay(), at.toNanoOfDay() / 1000 + 1,
                ChronoUnit.MICROS.between(Instant.EPOCH, local.toInstant(ZoneOffset.UTC)),
                ChronoUnit.NANOS.between(Instant.EPOCH, nanos.toInstant())))).isNotEqualTo(asObjects);
    }

    private static GenericRecord row(Types.StructType struct, Object... values) {
        GenericRecord row = GenericRecord.create(struct);
        for (int i = 0; i < values.length; i++) {
            row.set(i, values[i]);
        }
        return row;
    }

    @Test
    void registryListsTablesOfNestedNamespacesAndLoadsThem() {
        Catalog catalog = registry.catalog(CATALOG);
        catalog.createTable(org.apache.iceberg.catalog.TableIdentifier.of("sales", "emea", "orders"), SampleTables.EVENTS);

        List<TableId> tables = registry.listTables(CATALOG);

        TableId orders = TableId.parse(CATALOG + ".sales.emea.orders");
        assertThat(tables).contains(orders);
        assertThat(registry.load(orders).name()).endsWith("sales.emea.orders");
    }

    @Test
    void namesAreListedAsTheCatalogSpellsThemAndATableCryoCannotNameHidesNoOther() {
        Catalog catalog = registry.catalog(CATALOG);
        org.apache.iceberg.catalog.TableIdentifier odd = org.apache.iceberg.catalog.TableIdentifier.of(
                Namespace.of("sales", "emea"), "Daily \"Q4\" it's");
        org.apache.iceberg.catalog.TableIdentifier dotted = org.apache.iceberg.catalog.TableIdentifier.of(
                Namespace.of("sales"), "v1.archive");
        catalog.createTable(odd, SampleTables.EVENTS);
        catalog.createTable(dotted, SampleTables.EVENTS);

        List<TableId> tables = registry.listTables(CATALOG);

        TableId expected = new TableId(CATALOG, List.of("sales", "emea"), "Daily \"Q4\" it's");
        assertThat(tables).contains(expected);
        assertThat(TableId.parse(expected.toString())).isEqualTo(expected);
        assertThat(registry.load(expected).name()).endsWith("Daily \"Q4\" it's");
        assertThat(tables).noneMatch(table -> table.table().contains("archive"));
    }

    @Test
    void misconfigurationIsNamed() {
        assertThatThrownBy(() -> registry.catalog("nope"))
                .hasMessage("Cannot find catalog 'nope': configured catalogs are [" + CATALOG + "]");
        assertThatThrownBy(() -> CatalogRegistry.create(Map.of("lake", Map.of("warehouse", "/tmp/w"))))
                .hasMessage("Cannot configure catalog lake: set its 'type' (jdbc, rest, hadoop, nessie, hive, glue) or 'catalog-impl'");
    }

    private static Table create(String name, int formatVersion) {
        return registry.catalog(CATALOG).createTable(
                org.apache.iceberg.catalog.TableIdentifier.of("sales", name + "_" + UUID.randomUUID().toString().substring(0, 6)),
                SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion)));
    }
}
