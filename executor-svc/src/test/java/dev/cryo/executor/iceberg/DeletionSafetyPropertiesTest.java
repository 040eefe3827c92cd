package dev.cryo.executor.iceberg;

import dev.cryo.contracts.OrphanAgeFloors;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.executor.engine.OrphanShareBrake;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.orphan.LocationEquivalence;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import dev.cryo.testsupport.S3MockServer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deleting operations against random tables and histories, on local disk and on S3: appends,
 * copy-on-write overwrites, row deltas (position deletes, v3 deletion vectors, equality deletes),
 * writes to a branch, tags, statistics and partition statistics files, the writer's own expiry,
 * orphans planted at random ages, tables nested in the table's location (by their location or their
 * {@code write.data.path}) and data files referenced under another spelling of their path ({@code /./},
 * {@code //}). After Cryo's expire_snapshots and remove_orphan_files:
 * <ul>
 *   <li>every file a reader of any remaining snapshot needs exists (its data and delete files as
 *       Iceberg's own scan planning finds them, its manifests and manifest list, every metadata file
 *       in the log, every statistics file): computed with Iceberg's APIs, not Cryo's model;</li>
 *   <li>every remaining snapshot reads the same rows as before;</li>
 *   <li>every nested table still has every file its readers need and reads the same rows;</li>
 *   <li>every planted orphan older than the floor is gone, and every younger one is still there.</li>
 * </ul>
 * On local disk every file is first back-dated ten days (so only references keep the live ones)
 * and each orphan gets its own age; S3 objects cannot be back-dated, so there the engine's clock
 * runs ten days ahead and every orphan is old. The totals are printed when the class ends.
 */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class DeletionSafetyPropertiesTest {

    enum Storage { LOCAL, S3 }

    static final Duration FLOOR = Duration.ofDays(3);
    static final Duration BACKDATED = Duration.ofDays(10);
    static final String CATALOG = "safety_" + UUID.randomUUID().toString().substring(0, 8);
    static final String S3_CATALOG = CATALOG + "_s3";
    static final Namespace NAMESPACE = Namespace.of("histories");

    static Path root;
    static S3MockServer s3;
    static CatalogRegistry registry;

    static final AtomicLong TRIALS = new AtomicLong();
    static final AtomicLong S3_TRIALS = new AtomicLong();
    static final AtomicLong ORPHANS_DELETED = new AtomicLong();
    static final AtomicLong EXPIRED_SNAPSHOTS = new AtomicLong();
    static final AtomicLong LIVE_FILES_CHECKED = new AtomicLong();
    static final AtomicLong LIVE_FILES_DELETED = new AtomicLong();
    static final AtomicLong OTHER_UNREFERENCED_DELETED = new AtomicLong();
    static final AtomicLong FILES_OF_EXPIRED_SNAPSHOTS = new AtomicLong();
    static final AtomicLong NESTED_TABLES = new AtomicLong();
    static final AtomicLong SPELLED_FILES = new AtomicLong();

    @BeforeContainer
    static void start() throws Exception {
        root = Files.createTempDirectory("cryo-deletion-safety");
        s3 = new S3MockServer(root.resolve("s3"));
        Map<String, String> local = LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword(), "executor_safety_test", root.resolve("local"));
        Map<String, String> onS3 = new HashMap<>(LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword(), "executor_safety_test", root.resolve("unused")));
        onS3.putAll(s3.warehouseProperties(S3_CATALOG));
        registry = CatalogRegistry.create(Map.of(CATALOG, local, S3_CATALOG, onS3));
        ((SupportsNamespaces) registry.catalog(CATALOG)).createNamespace(NAMESPACE);
        ((SupportsNamespaces) registry.catalog(S3_CATALOG)).createNamespace(NAMESPACE);
    }

    @AfterContainer
    static void stop() throws Exception {
        System.out.printf("Deletion safety: %d trials (%d on S3), %d snapshots expired with %d data and delete files only"
                        + " they referenced, %d orphans deleted (%d of them not planted: files the histories left"
                        + " unreferenced), %d nested tables, %d files referenced under another spelling, %d live files"
                        + " checked after the run (nested tables' included), %d of them deleted%n", TRIALS.get(),
                S3_TRIALS.get(), EXPIRED_SNAPSHOTS.get(), FILES_OF_EXPIRED_SNAPSHOTS.get(), ORPHANS_DELETED.get(),
                OTHER_UNREFERENCED_DELETED.get(), NESTED_TABLES.get(), SPELLED_FILES.get(), LIVE_FILES_CHECKED.get(),
                LIVE_FILES_DELETED.get());
        if (registry != null) {
            registry.close();
        }
        if (s3 != null) {
            s3.close();
        }
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    @Property(tries = 50)
    void noLiveFileIsEverDeletedAndEveryOldOrphanGoes(@ForAll("histories") History history) throws IOException {
        TRIALS.incrementAndGet();
        String catalog = history.storage() == Storage.S3 ? S3_CATALOG : CATALOG;
        if (history.storage() == Storage.S3) {
            S3_TRIALS.incrementAndGet();
        }
        Table table = registry.catalog(catalog).createTable(TableIdentifier.of(NAMESPACE, "t_" + UUID.randomUUID()
                        .toString().replace("-", "").substring(0, 12)), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of(TableProperties.FORMAT_VERSION, String.valueOf(history.formatVersion())));
        Map<String, Duration> orphans = new LinkedHashMap<>();
        List<Table> nested = new ArrayList<>();
        new HistoryWriter(table, new Random(history.seed()), registry.catalog(catalog), nested).run(history.steps(), orphans);
        table.refresh();
        Map<Table, Set<String>> nestedNeeds = new LinkedHashMap<>();
        Map<Table, Fingerprint> nestedRows = new LinkedHashMap<>();
        for (Table other : nested) {
            other.refresh();
            nestedNeeds.put(other, neededByReaders(other));
            nestedRows.put(other, Fingerprints.ofTable(other));
        }

        Clock clock = Clock.systemUTC();
        if (history.storage() == Storage.LOCAL) {
            backDate(table, orphans);
        } else {
            clock = Clock.offset(Clock.systemUTC(), BACKDATED);
            orphans.replaceAll((location, age) -> BACKDATED);
        }
        Map<Long, Fingerprint> rowsBefore = new HashMap<>();
        for (Snapshot snapshot : table.snapshots()) {
            rowsBefore.put(snapshot.snapshotId(), Fingerprints.of(table, snapshot.snapshotId(), Expressions.alwaysTrue()));
        }
        int snapshotsBefore = rowsBefore.size();

        NativeEngine engine = new NativeEngine(registry, new NativeEngineSettings(TestTables.REWRITE, Duration.ofDays(5), 1,
                new OrphanRemovalSettings(FLOOR, OrphanAgeFloors.UnsafeFloors.REFUSED, LocationEquivalence.DEFAULT,
                        new OrphanShareBrake(1), history.batchSize(), false)), JobRecords.NONE, clock);
        TableId id = TableId.of(catalog, NAMESPACE.toString(), table.name().substring(table.name().lastIndexOf('.') + 1));
        String job = "job-" + UUID.randomUUID();
        StepResult expired = engine.run(new StepRequest(id, job, StepKey.table(Operation.EXPIRE_SNAPSHOTS), List.of(),
                new OperationParameters(null, history.retention(), history.retainLast(), null)));
        FILES_OF_EXPIRED_SNAPSHOTS.addAndGet(expired.before().dataFiles() + expired.before().deleteFiles());
        table.refresh();
        Set<String> live = neededByReaders(table);
        StepResult removed = engine.run(new StepRequest(id, job, StepKey.table(Operation.REMOVE_ORPHAN_FILES), List.of(),
                OperationParameters.NONE));
        table.refresh();

        Set<String> missing = new HashSet<>();
        for (String location : live) {
            if (!table.io().newInputFile(location).exists()) {
                missing.add(location);
            }
        }
        for (Map.Entry<Table, Set<String>> other : nestedNeeds.entrySet()) {
            for (String location : other.getValue()) {
                if (!other.getKey().io().newInputFile(location).exists()) {
                    missing.add(location);
                }
            }
            LIVE_FILES_CHECKED.addAndGet(other.getValue().size());
        }
        LIVE_FILES_CHECKED.addAndGet(live.size());
        LIVE_FILES_DELETED.addAndGet(missing.size());
        EXPIRED_SNAPSHOTS.addAndGet(snapshotsBefore - rowsBefore.keySet().stream().filter(snapshot -> table.snapshot(snapshot) != null).count());
        ORPHANS_DELETED.addAndGet(removed.files().size());
        assertThat(missing).as("files a reader of a remaining snapshot needs").isEmpty();
        assertThat(neededByReaders(table)).as("nothing new is needed").isEqualTo(live);
        for (Map.Entry<Table, Fingerprint> other : nestedRows.entrySet()) {
            other.getKey().refresh();
            assertThat(Fingerprints.ofTable(other.getKey())).as("rows of nested table %s", other.getKey().name())
                    .isEqualTo(other.getValue());
        }
        for (Snapshot snapshot : table.snapshots()) {
            assertThat(Fingerprints.of(table, snapshot.snapshotId(), Expressions.alwaysTrue()))
                    .as("rows of snapshot %d", snapshot.snapshotId()).isEqualTo(rowsBefore.get(snapshot.snapshotId()));
        }
        for (Map.Entry<String, Duration> orphan : orphans.entrySet()) {
            boolean old = orphan.getValue().compareTo(FLOOR) > 0;
            assertThat(table.io().newInputFile(orphan.getKey()).exists())
                    .as("orphan %s, %s old (floor %s)", orphan.getKey(), orphan.getValue(), FLOOR).isEqualTo(!old);
        }
        // Besides the planted orphans, histories make their own: a statistics file replaced by a newer one
        // for the same snapshot is referenced by nothing. Whatever went, no reader needed it (checked above).
        Set<String> planted = new HashSet<>();
        orphans.keySet().forEach(location -> planted.add(URI.create(location).getPath()));
        OTHER_UNREFERENCED_DELETED.addAndGet(removed.files().stream()
                .filter(location -> !planted.contains(URI.create(location).getPath())).count());
        // Every orphan removal reads every table of the catalogs: dropped (files kept), a trial's tables cost the next nothing.
        for (Table other : nested) {
            registry.catalog(catalog).dropTable(identifier(other), false);
        }
        registry.catalog(catalog).dropTable(identifier(table), false);
    }

    static TableIdentifier identifier(Table table) {
        return TableIdentifier.of(NAMESPACE, table.name().substring(table.name().lastIndexOf('.') + 1));
    }

    // ------------------------------------------------------------------ what readers need, by Iceberg's own APIs

    /** Every file a reader of any snapshot of the table needs, found with Iceberg's APIs only. */
    static Set<String> neededByReaders(Table table) {
        Set<String> needed = new HashSet<>();
        for (Snapshot snapshot : table.snapshots()) {
            needed.add(snapshot.manifestListLocation());
            for (ManifestFile manifest : snapshot.allManifests(table.io())) {
                needed.add(manifest.path());
            }
            try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
                for (FileScanTask task : tasks) {
                    needed.add(task.file().location());
                    task.deletes().forEach(delete -> needed.add(delete.location()));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        needed.addAll(ReachableFileUtil.metadataFileLocations(table, false));
        needed.addAll(ReachableFileUtil.statisticsFilesLocations(table));
        return needed;
    }

    private static void backDate(Table table, Map<String, Duration> orphans) throws IOException {
        Path location = Path.of(URI.create(table.location()));
        Instant now = Instant.now();
        try (Stream<Path> files = Files.walk(location)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(file, FileTime.from(now.minus(BACKDATED)));
            }
        }
        for (Map.Entry<String, Duration> orphan : orphans.entrySet()) {
            Files.setLastModifiedTime(Path.of(URI.create(orphan.getKey())), FileTime.from(now.minus(orphan.getValue())));
        }
    }

    // ------------------------------------------------------------------ histories

    record History(Storage storage, int formatVersion, List<Step> steps, Duration retention, int retainLast,
                   int batchSize, long seed) {
    }

    sealed interface Step {
        record Append(int rows) implements Step { }
        record Overwrite() implements Step { }
        record PositionDelete() implements Step { }
        record EqualityDelete() implements Step { }
        record BranchAppend(String branch) implements Step { }
        record Tag() implements Step { }
        record Statistics() implements Step { }
        record PartitionStatistics() implements Step { }
        record WriterExpiry() implements Step { }
        record Orphan(Duration age, boolean inMetadata) implements Step { }
        /** Another table whose location (or, with {@code dataPath}, whose write.data.path) lies under this one's. */
        record Nested(boolean dataPath) implements Step { }
        /** An append of a data file referenced under another spelling of its path. */
        record Spelled(String infix) implements Step { }
    }

    @Provide
    Arbitrary<History> histories() {
        Arbitrary<Step> step = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, Arbitraries.integers().between(1, 40).map(Step.Append::new)),
                net.jqwik.api.Tuple.of(4, Arbitraries.just(new Step.Overwrite())),
                net.jqwik.api.Tuple.of(3, Arbitraries.just(new Step.PositionDelete())),
                net.jqwik.api.Tuple.of(2, Arbitraries.just(new Step.EqualityDelete())),
                net.jqwik.api.Tuple.of(2, Arbitraries.of("audit", "staging").map(Step.BranchAppend::new)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new Step.Tag())),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new Step.Statistics())),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new Step.PartitionStatistics())),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new Step.WriterExpiry())),
                net.jqwik.api.Tuple.of(4, Combinators.combine(
                        Arbitraries.of(Duration.ofHours(1), Duration.ofDays(2), Duration.ofDays(4), Duration.ofDays(30)),
                        Arbitraries.of(true, false)).as(Step.Orphan::new)),
                net.jqwik.api.Tuple.of(2, Arbitraries.of(true, false).map(Step.Nested::new)),
                net.jqwik.api.Tuple.of(2, Arbitraries.of("/./", "//", "/.//").map(Step.Spelled::new)));
        return Combinators.combine(
                Arbitraries.frequency(net.jqwik.api.Tuple.of(3, Storage.LOCAL), net.jqwik.api.Tuple.of(1, Storage.S3)),
                Arbitraries.of(2, 3),
                step.list().ofMinSize(3).ofMaxSize(14),
                Arbitraries.frequency(net.jqwik.api.Tuple.of(3, Duration.ZERO), net.jqwik.api.Tuple.of(1, Duration.ofHours(1)),
                        net.jqwik.api.Tuple.of(1, Duration.ofDays(20))),
                Arbitraries.integers().between(1, 2),
                Arbitraries.of(1, 2, 1000),
                Arbitraries.longs()).as(History::new);
    }
}
