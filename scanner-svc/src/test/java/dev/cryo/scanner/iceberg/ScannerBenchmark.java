package dev.cryo.scanner.iceberg;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.scanner.persistence.JdbcManifestCache;
import dev.cryo.testsupport.Infrastructure;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The scanner benchmark (a main class, not run by Surefire): a day-partitioned table of
 * 100 000 data files in 1 000 partitions (manifests written directly; the data files do not
 * exist, which a metadata-only scan never notices), then
 * <ol>
 *   <li>the cold scan: empty caches, every manifest read;</li>
 *   <li>the rescan after one commit: the new manifest read, the rest from the cache;</li>
 *   <li>the rescan after a restart: memory empty, PostgreSQL cache warm.</li>
 * </ol>
 * Run with {@code ./mvnw -pl scanner-svc test-compile exec:java}-style tooling or from the test
 * class path: {@code java -cp <test class path> dev.cryo.scanner.iceberg.ScannerBenchmark [files] [partitions]}.
 * Needs the local PostgreSQL ({@code ./cryo infra up}).
 */
public final class ScannerBenchmark {

    public static void main(String[] args) throws Exception {
        int files = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        int filesPerManifest = files / partitions;
        Path warehouse = Files.createTempDirectory("scanner-bench");
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        ExecutorService readers = Executors.newFixedThreadPool(2);
        try (CatalogRegistry registry = CatalogRegistry.create(Map.of("bench", LocalCatalogs.jdbc(Infrastructure.jdbcUrl(),
                Infrastructure.dbUser(), Infrastructure.dbPassword(), "scanner_bench", warehouse)))) {
            Namespace namespace = Namespace.of("bench_" + suffix);
            ((SupportsNamespaces) registry.catalog("bench")).createNamespace(namespace);
            Table table = registry.catalog("bench").createTable(TableIdentifier.of(namespace, "events"), SampleTables.EVENTS,
                    PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(), Map.of("format-version", "2"));
            TableId id = new TableId("bench", java.util.List.of(namespace.levels()), "events");

            long buildStart = System.nanoTime();
            FakeFiles.appendManifests(table, partitions, filesPerManifest, 19000, partitions, new Random(42));
            table.refresh();
            System.out.printf("built %d data files in %d partitions (%d manifests) in %s%n", files, partitions, partitions,
                    Duration.ofNanos(System.nanoTime() - buildStart));

            JdbcManifestCache database = new JdbcManifestCache(TestDatabase.fresh("scanner_bench_cache"));
            MetadataScanner scanner = new MetadataScanner(new MemoryManifestCache(database, 500_000), readers,
                    2L * 1024 * 1024, Clock.systemUTC());

            TableScanned cold = timed("cold scan (fresh JVM, empty caches)", () -> scanner.scan(id, registry.load(id), null));
            FakeFiles.appendManifests(table, 1, 1, 19000, 1, new Random(7));
            TableScanned rescan = timed("rescan after one commit", () -> scanner.scan(id, registry.load(id), null));
            FakeFiles.appendManifests(table, 1, 1, 19001, 1, new Random(8));
            timed("rescan after one more commit", () -> scanner.scan(id, registry.load(id), null));
            MetadataScanner restarted = new MetadataScanner(new MemoryManifestCache(database, 500_000), readers,
                    2L * 1024 * 1024, Clock.systemUTC());
            timed("rescan after a restart (PostgreSQL cache only)", () -> restarted.scan(id, registry.load(id), null));
            MetadataScanner warmCold = new MetadataScanner(ManifestCache.none(), readers, 2L * 1024 * 1024, Clock.systemUTC());
            timed("cold scan again (JIT warm, no cache)", () -> warmCold.scan(id, registry.load(id), null));

            System.out.printf("cold scan read %d manifests; rescan read %d and took %d from the cache; %d files, %d partitions%n",
                    cold.counters().manifestsRead(), rescan.counters().manifestsRead(), rescan.counters().manifestsCached(),
                    rescan.totals().dataFiles(), rescan.totals().partitions());
        } finally {
            readers.shutdownNow();
        }
    }

    private static TableScanned timed(String what, java.util.function.Supplier<TableScanned> scan) {
        long start = System.nanoTime();
        TableScanned result = scan.get();
        Duration wall = Duration.ofNanos(System.nanoTime() - start);
        System.out.printf("%-50s %6d ms wall (table load included), %6d ms scan%n", what, wall.toMillis(),
                result.scanDuration().toMillis());
        return result;
    }

    private ScannerBenchmark() {
    }
}
