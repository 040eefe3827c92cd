package dev.cryo.demo.live;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.demo.TestCatalogs;
import dev.cryo.demo.fleet.DemoTable;
import dev.cryo.demo.fleet.Fleet;
import dev.cryo.demo.fleet.FleetBuilder;
import dev.cryo.demo.fleet.TableData;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.reporter.KafkaCommitReporter;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.KafkaTestClient;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

@NeedsInfrastructure
class LiveWritersTest {

    @TempDir
    Path warehouse;

    @Test
    void liveTablesKeepChangingAndEveryCommitIsAnnouncedOnKafka() throws Exception {
        Namespace namespace = Namespace.of(TestCatalogs.uniqueNamespace("live"));
        Map<String, String> properties = new HashMap<>(TestCatalogs.properties(warehouse));
        try (CatalogRegistry creating = CatalogRegistry.create(Map.of(TestCatalogs.CATALOG, properties))) {
            new FleetBuilder(creating.catalog(TestCatalogs.CATALOG), TestCatalogs.CATALOG, namespace, Clock.systemUTC(),
                    new PrintWriter(new StringWriter()), 2).build(Fleet.liveTables());
        }
        properties.put(CatalogProperties.METRICS_REPORTER_IMPL, KafkaCommitReporter.class.getName());
        properties.put(KafkaCommitReporter.BOOTSTRAP_SERVERS, Infrastructure.kafkaBootstrapServers());
        properties.put(KafkaCommitReporter.CATALOG, TestCatalogs.CATALOG);
        // as the reporter's principal, whose ACLs allow table changes only
        properties.putAll(KafkaCommitReporter.producerProperties(Infrastructure.kafkaSecurity("cryo-reporter")));
        Set<String> tableIds = Fleet.liveTables().stream()
                .map(table -> TestCatalogs.CATALOG + "." + namespace + "." + table.name()).collect(Collectors.toSet());

        try (KafkaTestClient kafka = new KafkaTestClient();
             CatalogRegistry registry = CatalogRegistry.create(Map.of(TestCatalogs.CATALOG, properties))) {
            Map<TopicPartition, Long> mark = kafka.mark(Topics.TABLE_CHANGED);
            Catalog catalog = registry.catalog(TestCatalogs.CATALOG);
            Map<String, Integer> snapshotsBefore = snapshotCounts(catalog, namespace);
            long equalityDeletesBefore = equalityDeletes(catalog.loadTable(TableIdentifier.of(namespace, "accounts_cdc")));

            try (LiveWriters writers = new LiveWriters(catalog, namespace, Clock.systemUTC())) {
                List<String> started = writers.start(Fleet.liveTables(),
                        new LiveWriters.Pace(Duration.ofMillis(300), Duration.ofMillis(400), Duration.ofMillis(900)));
                assertThat(started).hasSize(3);
                await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(writers.commits())
                        .containsOnlyKeys("clickstream", "accounts_cdc", "ledger")
                        .allSatisfy((table, commits) -> assertThat(commits).isGreaterThanOrEqualTo(3)));
            }

            Map<String, Integer> snapshotsAfter = snapshotCounts(catalog, namespace);
            snapshotsAfter.forEach((table, count) -> assertThat(count).as(table).isGreaterThan(snapshotsBefore.get(table)));
            assertThat(equalityDeletes(catalog.loadTable(TableIdentifier.of(namespace, "accounts_cdc"))))
                    .isGreaterThan(equalityDeletesBefore);

            List<ConsumerRecord<String, byte[]>> records = kafka.readAfter(mark, Duration.ofSeconds(60), read -> read.stream()
                    .map(ConsumerRecord::key).filter(tableIds::contains).collect(Collectors.toSet()).size() == tableIds.size());
            List<EventEnvelope<CryoEvent>> changes = records.stream().filter(record -> tableIds.contains(record.key()))
                    .map(KafkaEnvelopes::fromRecord).toList();
            assertThat(changes).allSatisfy(change -> assertThat(change.data()).isInstanceOf(TableChanged.class));
            assertThat(changes.stream().map(change -> ((TableChanged) change.data()).table().toString()))
                    .containsAll(tableIds);
            // no actor: a writer's commit is not an operator's "fix now"
            assertThat(changes).allSatisfy(change -> assertThat(change.actor()).isNull());
        }
    }

    @Test
    void aPositionDeleteOfAFileThatAMaintenanceJobRewroteIsRefusedAndTheWriterGoesOn() throws Exception {
        try (CatalogRegistry registry = TestCatalogs.create(warehouse)) {
            Namespace namespace = Namespace.of(TestCatalogs.uniqueNamespace("rewritten"));
            Table table = registry.catalog(TestCatalogs.CATALOG).buildTable(TableIdentifier.of(namespace, "events"),
                    SampleTables.EVENTS).withPartitionSpec(PartitionSpec.unpartitioned()).create();
            TableData writer = new TableData(table, new Random(3), Clock.systemUTC(), 0);
            DataFile file = writer.append(writer.rows(100, writer.now(), Duration.ofMinutes(1))).get(0);
            // the maintenance job replaces the file while the writer still thinks of it
            Table jobView = registry.load(dev.cryo.contracts.TableId.parse(table.name()));
            TableData job = new TableData(jobView, new Random(4), Clock.systemUTC(), 1000);
            job.replace(file, job.rows(100, job.now(), Duration.ofMinutes(1)));

            assertThatThrownBy(() -> writer.deletePositions(file, 1, 2))
                    .isInstanceOf(ValidationException.class)
                    .hasMessageContaining("Cannot commit, missing data files");
            writer.append(writer.rows(10, writer.now(), Duration.ofMinutes(1)));
            assertThat(writer.dataFiles()).hasSize(2);
        }
    }

    @Test
    void upsertIdsOfOneRoundFallInOneBucket() {
        Function<Long, Integer> bucketOf = Transforms.<Long>bucket(4).bind(Types.LongType.get())::apply;
        for (int bucket = 0; bucket < 4; bucket++) {
            Set<Long> ids = LiveWriters.idsInBucket(new Random(bucket), bucket, 15);
            int expected = bucket;
            assertThat(ids).hasSize(15).allSatisfy(id -> {
                assertThat(bucketOf.apply(id)).isEqualTo(expected);
                assertThat(id).isBetween(0L, (long) Fleet.ACCOUNTS_ROWS - 1);
            });
        }
    }

    private static Map<String, Integer> snapshotCounts(Catalog catalog, Namespace namespace) {
        Map<String, Integer> counts = new HashMap<>();
        for (DemoTable table : Fleet.liveTables()) {
            Table loaded = catalog.loadTable(TableIdentifier.of(namespace, table.name()));
            counts.put(table.name(), (int) StreamSupport.stream(loaded.snapshots().spliterator(), false).count());
        }
        return counts;
    }

    private static long equalityDeletes(Table table) {
        table.refresh();
        try (var tasks = table.newScan().planFiles()) {
            return StreamSupport.stream(tasks.spliterator(), false).flatMap(task -> task.deletes().stream())
                    .filter(delete -> delete.content() == FileContent.EQUALITY_DELETES).map(delete -> delete.location())
                    .distinct().count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
