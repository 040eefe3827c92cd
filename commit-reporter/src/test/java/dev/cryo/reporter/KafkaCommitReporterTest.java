package dev.cryo.reporter;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.KafkaClientTest;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A writer whose catalog has the reporter commits; the CommitReport arrives on the real broker
 * as a TableChanged that contracts' reader decodes into an equal event. With Kafka unreachable
 * the commit still succeeds at once and the event is dropped and counted.
 */
@NeedsInfrastructure(Infrastructure.Component.KAFKA)
class KafkaCommitReporterTest extends KafkaClientTest {

    static final Schema SCHEMA = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

    private InMemoryCatalog catalog;

    @AfterEach
    void close() throws IOException {
        if (catalog != null) {
            catalog.close();
        }
    }

    @Test
    void everyCommitBecomesATableChangedThatContractsReadBack() {
        catalog = writerCatalog(Infrastructure.kafkaBootstrapServers(), "lake");
        String name = "orders_" + UUID.randomUUID().toString().substring(0, 8);
        Table table = catalog.createTable(TableIdentifier.of("sales", name), SCHEMA, PartitionSpec.unpartitioned());
        Map<TopicPartition, Long> mark = kafka.mark(Topics.TABLE_CHANGED);
        TableId expectedTable = TableId.parse("lake.sales." + name);

        append(table, "a.parquet");
        long committedAtMillis = System.currentTimeMillis();
        table.refresh();
        long snapshotId = table.currentSnapshot().snapshotId();

        ConsumerRecord<String, byte[]> record = first(mark, r -> expectedTable.toString().equals(r.key()));
        System.out.printf("commit report stamped by the producer %d ms after the commit returned%n",
                record.timestamp() - committedAtMillis);
        EventEnvelope<CryoEvent> envelope = KafkaEnvelopes.fromRecord(record);
        TableChanged change = (TableChanged) envelope.data();
        assertThat(envelope.type()).isEqualTo(EventType.TABLE_CHANGED);
        assertThat(envelope.source()).isEqualTo("/cryo/commit-reporter");
        assertThat(envelope.subject()).isEqualTo(expectedTable.toString());
        assertThat(envelope.correlationId()).isEqualTo(envelope.id());
        assertThat(envelope.actor()).isEqualTo("nightly-etl");
        assertThat(change).isEqualTo(new TableChanged(expectedTable, ChangeSource.COMMIT_REPORT, change.detectedAt(),
                snapshotId, table.currentSnapshot().sequenceNumber(), "append", null, null, null, "nightly-etl"));
        assertThat(change.detectedAt()).isBetween(Instant.now().minusSeconds(30), Instant.now());
        // what contracts write for the same event, the reporter wrote too
        assertThat(KafkaEnvelopes.fromRecord(asConsumed(KafkaEnvelopes.toRecord(envelope))).data()).isEqualTo(change);
    }

    @Test
    void aCommitSucceedsAtOnceWhenKafkaIsUnreachableAndTheEventIsCountedAsDropped() throws Exception {
        catalog = writerCatalog("127.0.0.1:" + freePort(), "lake");
        KafkaCommitReporter reporter = reporterOf(catalog);
        Table table = catalog.createTable(TableIdentifier.of("sales", "offline"), SCHEMA, PartitionSpec.unpartitioned());

        long start = System.nanoTime();
        append(table, "b.parquet");
        append(table, "c.parquet");
        Duration commitTime = Duration.ofNanos(System.nanoTime() - start);

        table.refresh();
        assertThat(table.snapshots()).hasSize(2);
        assertThat(commitTime).isLessThan(Duration.ofSeconds(2));
        await().atMost(Duration.ofSeconds(30)).until(() -> reporter.droppedCount() == 2);
        assertThat(reporter.sentCount()).isZero();
    }

    @Test
    void namesAreRewrittenToCryoTableIdsAndEscaped() {
        KafkaCommitReporter reporter = new KafkaCommitReporter();
        Map<String, String> properties = Map.of(KafkaCommitReporter.BOOTSTRAP_SERVERS, "127.0.0.1:1",
                KafkaCommitReporter.CATALOG, "lake");
        reporter.initialize(properties);
        try {
            assertThat(reporter.tableId("spark_catalog.db.events")).isEqualTo("lake.db.events");
            assertThat(reporter.tableId("iceberg.a.b.events")).isEqualTo("lake.a.b.events");
            assertThat(reporter.tableId("db.events")).isEqualTo("lake.db.events");
        } finally {
            reporter.close();
        }
        StringBuilder json = new StringBuilder();
        TableChangedJson.string(json, "a\"b\\c\n\u0001");
        assertThat(json.toString()).isEqualTo("\"a\\\"b\\\\c\\n\\u0001\"");
    }

    @Test
    void aMissingBootstrapServerSettingIsNamed() {
        assertThatThrownBy(() -> new KafkaCommitReporter().initialize(Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot start the Cryo commit reporter: set catalog property cryo.reporter.bootstrap-servers"
                        + " to the Kafka bootstrap servers");
    }

    private static InMemoryCatalog writerCatalog(String bootstrapServers, String cryoCatalog) {
        Map<String, String> properties = new HashMap<>();
        properties.put(CatalogProperties.METRICS_REPORTER_IMPL, KafkaCommitReporter.class.getName());
        properties.put(KafkaCommitReporter.BOOTSTRAP_SERVERS, bootstrapServers);
        properties.put(KafkaCommitReporter.CATALOG, cryoCatalog);
        properties.put(KafkaCommitReporter.ACTOR, "nightly-etl");
        properties.put(KafkaCommitReporter.SEND_TIMEOUT_MS, "1000");
        // as the reporter's principal, whose ACLs allow table changes only
        properties.putAll(KafkaCommitReporter.producerProperties(Infrastructure.kafkaSecurity("cryo-reporter")));
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.initialize("writer", properties);
        catalog.createNamespace(Namespace.of("sales"));
        return catalog;
    }

    private static KafkaCommitReporter reporterOf(InMemoryCatalog catalog) throws Exception {
        java.lang.reflect.Method method = org.apache.iceberg.BaseMetastoreCatalog.class.getDeclaredMethod("metricsReporter");
        method.setAccessible(true);
        return (KafkaCommitReporter) method.invoke(catalog);
    }

    private static void append(Table table, String file) {
        table.newAppend().appendFile(DataFiles.builder(table.spec()).withPath("memory://data/" + file)
                .withFileSizeInBytes(100).withRecordCount(1).build()).commit();
    }

    private ConsumerRecord<String, byte[]> first(Map<TopicPartition, Long> mark, Predicate<ConsumerRecord<String, byte[]>> match) {
        List<ConsumerRecord<String, byte[]>> records = kafka.readAfter(mark, Duration.ofSeconds(30),
                read -> read.stream().anyMatch(match));
        return records.stream().filter(match).findFirst().orElseThrow();
    }

    private static ConsumerRecord<String, byte[]> asConsumed(org.apache.kafka.clients.producer.ProducerRecord<String, byte[]> record) {
        ConsumerRecord<String, byte[]> consumed = new ConsumerRecord<>(record.topic(), 0, 0, record.key(), record.value());
        record.headers().forEach(header -> consumed.headers().add(header));
        return consumed;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
