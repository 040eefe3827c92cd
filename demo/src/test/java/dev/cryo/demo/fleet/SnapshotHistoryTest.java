package dev.cryo.demo.fleet;

import dev.cryo.demo.TestCatalogs;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.testsupport.Infrastructure.Component;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@NeedsInfrastructure(Component.POSTGRESQL)
class SnapshotHistoryTest {

    @TempDir
    Path warehouse;

    @Test
    void snapshotsGetOlderTimestampsAndTheTableTakesNewCommitsAfterwards() throws Exception {
        try (CatalogRegistry registry = TestCatalogs.create(warehouse)) {
            Table table = newTable(registry);
            TableData data = new TableData(table, new Random(7), Clock.systemUTC(), 0);
            for (int i = 0; i < 4; i++) {
                data.append(data.rows(10, data.now(), Duration.ofMinutes(1)));
            }
            Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            List<Instant> wanted = List.of(now.minus(Duration.ofDays(40)), now.minus(Duration.ofDays(30)),
                    now.minus(Duration.ofDays(8)), now.minus(Duration.ofHours(2)));
            long rowsBefore = TableFacts.of(table).dataRecords();

            data.backdate(wanted::get);

            Table reloaded = registry.load(dev.cryo.contracts.TableId.parse(table.name()));
            assertThat(snapshots(reloaded)).extracting(snapshot -> Instant.ofEpochMilli(snapshot.timestampMillis()))
                    .containsExactlyElementsOf(wanted);
            assertThat(reloaded.history()).extracting(entry -> Instant.ofEpochMilli(entry.timestampMillis()))
                    .containsExactlyElementsOf(wanted);
            assertThat(TableFacts.of(reloaded).dataRecords()).isEqualTo(rowsBefore);

            new TableData(reloaded, new Random(8), Clock.systemUTC(), 100).append(
                    new TableData(reloaded, new Random(8), Clock.systemUTC(), 100).rows(5, data.now(), Duration.ofMinutes(1)));
            reloaded.refresh();
            assertThat(snapshots(reloaded)).hasSize(5);
            assertThat(reloaded.currentSnapshot().timestampMillis()).isGreaterThan(now.toEpochMilli() - 60_000);
        }
    }

    @Test
    void timestampsThatGoBackwardsAreRefused() throws Exception {
        try (CatalogRegistry registry = TestCatalogs.create(warehouse)) {
            Table table = newTable(registry);
            TableData data = new TableData(table, new Random(7), Clock.systemUTC(), 0);
            data.append(data.rows(10, data.now(), Duration.ofMinutes(1)));
            data.append(data.rows(10, data.now(), Duration.ofMinutes(1)));
            Instant now = Instant.now();

            assertThatThrownBy(() -> data.backdate(i -> now.minus(Duration.ofDays(i + 1))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Cannot backdate")
                    .hasMessageContaining("snapshot timestamps must increase");
        }
    }

    private static Table newTable(CatalogRegistry registry) {
        Namespace namespace = Namespace.of(TestCatalogs.uniqueNamespace("history"));
        return registry.catalog(TestCatalogs.CATALOG).buildTable(TableIdentifier.of(namespace, "events"), SampleTables.EVENTS)
                .withPartitionSpec(PartitionSpec.unpartitioned()).create();
    }

    private static List<Snapshot> snapshots(Table table) {
        return StreamSupport.stream(table.snapshots().spliterator(), false)
                .sorted(Comparator.comparingLong(Snapshot::sequenceNumber)).toList();
    }
}
