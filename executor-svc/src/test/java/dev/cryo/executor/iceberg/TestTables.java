package dev.cryo.executor.iceberg;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.executor.engine.Backoff;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.testsupport.Infrastructure;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;

/** Real Iceberg tables for engine tests: a JDBC catalog on the real PostgreSQL and a temporary warehouse. */
public final class TestTables implements AutoCloseable {

    public static final OffsetDateTime START = OffsetDateTime.of(2026, 11, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    /** Two threads whatever the machine: the parallel rewrite path runs in every test with several partitions. */
    static final RewriteSettings REWRITE = new RewriteSettings(0.75, 1.8, 20, 3,
            new Backoff(Duration.ofMillis(20), Duration.ofMillis(500)), 2);

    final String catalogName = "engine_" + UUID.randomUUID().toString().substring(0, 8);
    final CatalogRegistry registry;
    private final Namespace namespace = Namespace.of("maintenance");

    TestTables(Path warehouse) {
        registry = CatalogRegistry.create(Map.of(catalogName, LocalCatalogs.jdbc(Infrastructure.jdbcUrl(),
                Infrastructure.dbUser(), Infrastructure.dbPassword(), "executor_engine_test", warehouse)));
        ((SupportsNamespaces) registry.catalog(catalogName)).createNamespace(namespace);
    }

    NativeEngine engine(NativeEngineSettings settings) {
        return new NativeEngine(registry, settings, JobRecords.NONE, java.time.Clock.systemUTC());
    }

    static NativeEngineSettings settings() {
        return new NativeEngineSettings(REWRITE, Duration.ofDays(5), 1, OrphanRemovalSettings.DEFAULTS);
    }

    Table create(String name, int formatVersion, Function<PartitionSpec.Builder, PartitionSpec.Builder> spec) {
        return registry.catalog(catalogName).createTable(TableIdentifier.of(namespace, name + "_" + suffix()),
                SampleTables.EVENTS, spec.apply(PartitionSpec.builderFor(SampleTables.EVENTS)).build(), Map.of(
                        TableProperties.FORMAT_VERSION, String.valueOf(formatVersion),
                        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, String.valueOf(8L * 1024 * 1024)));
    }

    /** Another handle on the table, as a writer in another process holds one. */
    Table load(Table table) {
        return registry.catalog(catalogName).loadTable(TableIdentifier.of(namespace, id(table).table()));
    }

    TableId id(Table table) {
        String[] parts = table.name().split("\\.");
        return TableId.of(catalogName, namespace.toString(), parts[parts.length - 1]);
    }

    /** {@code commits} appends of {@code rows} rows each, spread over {@code days} days from START. */
    public static List<Record> fill(Table table, int commits, int rows, int days, long seed) {
        Random random = new Random(seed);
        List<Record> all = new ArrayList<>();
        for (int commit = 0; commit < commits; commit++) {
            List<Record> batch = SampleTables.events(random, seed * 1_000_000 + (long) commit * rows, rows, START,
                    Duration.ofDays(days), 4, 30);
            new TableWriter(table).append(batch);
            all.addAll(batch);
        }
        table.refresh();
        return all;
    }

    public static List<DataFile> dataFiles(Table table) {
        table.refresh();
        List<DataFile> files = new ArrayList<>();
        if (table.currentSnapshot() == null) {
            return files;
        }
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> files.add(task.file()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    public static List<DeleteFile> deleteFiles(Table table) {
        table.refresh();
        Map<String, DeleteFile> deletes = new java.util.LinkedHashMap<>();
        if (table.currentSnapshot() == null) {
            return List.of();
        }
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> task.deletes().forEach(delete -> deletes.putIfAbsent(delete.location(), delete)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(deletes.values());
    }

    /** Every live delete file of the current snapshot, whether or not it still applies to a data file. */
    public static List<DeleteFile> liveDeleteFiles(Table table) {
        table.refresh();
        List<DeleteFile> deletes = new ArrayList<>();
        if (table.currentSnapshot() == null) {
            return deletes;
        }
        for (ManifestFile manifest : table.currentSnapshot().deleteManifests(table.io())) {
            try (ManifestReader<DeleteFile> reader = ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
                reader.forEach(delete -> deletes.add(delete.copyWithoutStats()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return deletes;
    }

    /**
     * Equality deletes on {@code id} of {@code count} rows of the day (after skipping {@code skip}
     * of them), in one file committed as a writer's row delta commits it.
     */
    public static void addEqualityDeletes(Table table, List<Record> rows, int day, int skip, int count) {
        TableWriter writer = new TableWriter(table);
        DataFile inDay = dataFiles(table).stream()
                .filter(file -> file.partition().get(0, Integer.class) == day).findFirst().orElseThrow();
        List<Record> keys = new ArrayList<>();
        rows.stream().filter(row -> writer.partitionOf(row).get(0, Integer.class) == day).skip(skip).limit(count)
                .forEach(row -> {
                    Record key = GenericRecord.create(table.schema().select("id"));
                    key.setField("id", row.getField("id"));
                    keys.add(key);
                });
        writer.commitDeletes(writer.writeEqualityDeletes(inDay.partition(), keys, "id"));
        table.refresh();
    }

    /** Files in the same spec and partition as {@code file}. */
    public static <F extends ContentFile<F>> List<F> samePartition(List<F> files, ContentFile<?> file) {
        return files.stream().filter(other -> other.specId() == file.specId()
                && other.partition().toString().equals(file.partition().toString())).toList();
    }

    /**
     * The predicate that the planner would send for the partition of {@code file}: internal values,
     * and for temporal and truncate transforms the half-open source range.
     */
    public static PartitionPredicate predicateOf(Table table, ContentFile<?> file) {
        PartitionSpec spec = table.specs().get(file.specId());
        List<FieldPredicate> fields = new ArrayList<>();
        for (int i = 0; i < spec.fields().size(); i++) {
            PartitionField field = spec.fields().get(i);
            Types.NestedField source = table.schema().findField(field.sourceId());
            Object value = file.partition().get(i, Object.class);
            String transform = field.transform().toString();
            String lower = null;
            String upper = null;
            if (value != null) {
                int number = value instanceof Integer integer ? integer : 0;
                OffsetDateTime epoch = OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
                switch (transform) {
                    case "year" -> { lower = epoch.plusYears(number).toString(); upper = epoch.plusYears(number + 1).toString(); }
                    case "month" -> { lower = epoch.plusMonths(number).toString(); upper = epoch.plusMonths(number + 1).toString(); }
                    case "day" -> {
                        LocalDate day = LocalDate.ofEpochDay(number);
                        lower = day.atStartOfDay().atOffset(ZoneOffset.UTC).toString();
                        upper = day.plusDays(1).atStartOfDay().atOffset(ZoneOffset.UTC).toString();
                    }
                    case "hour" -> { lower = epoch.plusHours(number).toString(); upper = epoch.plusHours(number + 1).toString(); }
                    default -> {
                        if (transform.startsWith("truncate") && value instanceof CharSequence prefix) {
                            String text = prefix.toString();
                            lower = text;
                            upper = text.substring(0, text.length() - 1) + (char) (text.charAt(text.length() - 1) + 1);
                        }
                    }
                }
            }
            fields.add(new FieldPredicate(field.name(), source.name(), source.type().toString(), transform,
                    value == null ? null : value.toString(), lower, upper, null));
        }
        return new PartitionPredicate(spec.specId(), fields);
    }

    private static String suffix() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    @Override
    public void close() throws Exception {
        registry.close();
    }
}
