package dev.cryo.scanner.app;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.testsupport.KafkaClientTest;
import jakarta.inject.Inject;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * A scanner test on the real Kafka and PostgreSQL, with a JDBC catalog of its own
 * ({@link TestCatalogResource}): a Kafka client per test, the namespace {@code sales}, tables scanned
 * once before a test acts on them, and the events the scanner published for a table.
 */
public abstract class ScanFlowTest extends KafkaClientTest {

    protected static final OffsetDateTime START = OffsetDateTime.of(2026, 11, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    protected static final Namespace NAMESPACE = Namespace.of("sales");

    @Inject
    protected CatalogRegistry catalogs;

    @BeforeAll
    static void namespace() {
        // the catalog bean is not reachable from a static method: create the namespace on a second client
        try (CatalogRegistry registry = CatalogRegistry.create(Map.of(TestCatalogResource.CATALOG,
                TestCatalogResource.catalogProperties))) {
            SupportsNamespaces namespaces = (SupportsNamespaces) registry.catalog(TestCatalogResource.CATALOG);
            if (!namespaces.namespaceExists(NAMESPACE)) {
                namespaces.createNamespace(NAMESPACE);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new table with one commit, already scanned once (so later scans are caused by the test). */
    protected Table scannedTable(String name) {
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);
        Table table = createTable(name);
        new TableWriter(table).append(SampleTables.events(new Random(2), 0, 20, START, Duration.ofDays(2), 3, 10));
        table.refresh();
        long snapshotId = table.currentSnapshot().snapshotId();
        awaitScan(scans, id(table), envelope -> Long.valueOf(snapshotId).equals(((TableScanned) envelope.data()).snapshotId()));
        return table;
    }

    protected Table createTable(String name) {
        return catalogs.catalog(TestCatalogResource.CATALOG).createTable(
                TableIdentifier.of(NAMESPACE, name + "_" + UUID.randomUUID().toString().substring(0, 8)), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build());
    }

    protected static TableId id(Table table) {
        return TableId.of(TestCatalogResource.CATALOG, "sales", table.name().substring(table.name().lastIndexOf('.') + 1));
    }

    @SuppressWarnings("unchecked")
    protected EventEnvelope<TableScanned> awaitScan(Map<TopicPartition, Long> mark, TableId table,
                                                  Predicate<EventEnvelope<CryoEvent>> match) {
        return (EventEnvelope<TableScanned>) (EventEnvelope<?>) awaitEvent(mark, table, match);
    }

    protected EventEnvelope<CryoEvent> awaitEvent(Map<TopicPartition, Long> mark, TableId table,
                                           Predicate<EventEnvelope<CryoEvent>> match) {
        List<ConsumerRecord<String, byte[]>> read = kafka.readAfter(mark, Duration.ofSeconds(60),
                records -> records.stream().filter(r -> table.toString().equals(r.key()))
                        .map(KafkaEnvelopes::fromRecord).anyMatch(match));
        return read.stream().filter(r -> table.toString().equals(r.key())).map(KafkaEnvelopes::fromRecord)
                .filter(match).findFirst().orElseThrow();
    }
}
