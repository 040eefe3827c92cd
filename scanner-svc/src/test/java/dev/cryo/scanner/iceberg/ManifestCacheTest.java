package dev.cryo.scanner.iceberg;

import dev.cryo.contracts.event.TableScanned;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.scanner.persistence.JdbcManifestCache;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Manifests are immutable, so their aggregates are cached by path in PostgreSQL: a rescan after
 * one small commit to a table with 400 manifests reads only the new manifest, also from a
 * scanner that starts with an empty memory (a restart).
 */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class ManifestCacheTest {

    @TempDir
    static Path warehouse;
    static TestTables tables;
    static ExecutorService readers;
    static DataSource database;

    @BeforeAll
    static void setUp() {
        tables = new TestTables(warehouse);
        readers = Executors.newFixedThreadPool(2);
        database = TestDatabase.fresh("scanner_cache_test");
    }

    @AfterAll
    static void tearDown() throws Exception {
        readers.shutdownNow();
        tables.close();
    }

    @Test
    void aRescanAfterOneCommitReadsOnlyTheNewManifest() {
        Table table = tables.create("many_manifests", 2,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(), Map.of());
        FakeFiles.appendManifests(table, 400, 2, 20000, 100, new Random(1));
        table.refresh();
        MetadataScanner scanner = scanner(new MemoryManifestCache(new JdbcManifestCache(database), 100_000));

        TableScanned cold = scanner.scan(tables.id(table), table, null);
        FakeFiles.appendManifests(table, 1, 1, 20000, 1, new Random(2));
        table.refresh();
        TableScanned rescan = scanner.scan(tables.id(table), table, null);
        TableScanned afterRestart = scanner(new MemoryManifestCache(new JdbcManifestCache(database), 100_000))
                .scan(tables.id(table), table, null);

        System.out.printf("400 manifests: cold scan %s (read %d), rescan %s (read %d, cached %d), after restart %s%n",
                cold.scanDuration(), cold.counters().manifestsRead(), rescan.scanDuration(),
                rescan.counters().manifestsRead(), rescan.counters().manifestsCached(), afterRestart.scanDuration());
        assertThat(cold.counters().manifestsRead()).isEqualTo(400);
        assertThat(cold.counters().manifestsCached()).isZero();
        assertThat(rescan.manifests().count()).isEqualTo(401);
        assertThat(rescan.counters().manifestsRead()).isEqualTo(1);
        assertThat(rescan.counters().manifestsCached()).isEqualTo(400);
        assertThat(afterRestart.counters().manifestsRead()).isZero();
        assertThat(afterRestart.counters().manifestsCached()).isEqualTo(401);
        assertThat(rescan.totals().dataFiles()).isEqualTo(801);
        assertThat(afterRestart.totals()).isEqualTo(rescan.totals());
        assertThat(afterRestart.partitions()).isEqualTo(rescan.partitions());
        assertThat(rescan.partitions()).hasSize(100);
        assertThat(MetadataTables.rows(table, org.apache.iceberg.MetadataTableType.FILES)).hasSize(801);
    }

    @Test
    void changedFileSizeTermsAreANewCacheKey() {
        Table table = tables.create("terms", 2, PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of());
        FakeFiles.appendManifests(table, 3, 5, 20000, 3, new Random(3));
        table.refresh();
        MetadataScanner scanner = scanner(new JdbcManifestCache(database));
        TableScanned before = scanner.scan(tables.id(table), table, null);

        table.updateProperties().set("write.target-file-size-bytes", String.valueOf(8L * 1024 * 1024)).commit();
        table.refresh();
        TableScanned after = scanner.scan(tables.id(table), table, null);

        assertThat(before.counters().manifestsRead()).isEqualTo(3);
        assertThat(after.counters().manifestsRead()).isEqualTo(3);
        assertThat(after.totals().oversizedFiles()).isGreaterThan(before.totals().oversizedFiles());
    }

    private static MetadataScanner scanner(ManifestCache cache) {
        return new MetadataScanner(cache, readers, 2L * 1024 * 1024, Clock.systemUTC());
    }
}
