package dev.cryo.bench.harness;

import dev.cryo.contracts.kafka.KafkaClientSecurity;
import dev.cryo.contracts.kafka.KafkaPrincipals;
import dev.cryo.contracts.TableId;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.reporter.KafkaCommitReporter;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The local Iceberg catalog that Cryo maintains, opened twice: once plain (the DAG's copies and
 * table set-up) and once with Cryo's commit reporter (the writers of Cryo's copies, as a writer
 * application with Cryo's jar).
 */
public final class Lakehouse implements Closeable {

    /** Every benchmark table: the events schema, day partitions, format v2. */
    public static final PartitionSpec DAY_SPEC = PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build();

    private final String catalogName;
    private final CatalogRegistry plain;
    private final CatalogRegistry reporting;

    public Lakehouse(Environment environment) {
        this.catalogName = environment.catalogName();
        Map<String, String> properties = new HashMap<>();
        properties.put("type", "jdbc");
        properties.put("uri", environment.catalogJdbcUrl());
        properties.put("jdbc.user", environment.catalogUser());
        properties.put("jdbc.password", System.getenv().getOrDefault("CRYO_CATALOG_PASSWORD", ""));
        properties.put("jdbc.schema-version", "V1");
        properties.put("warehouse", "file://" + environment.warehouse().toAbsolutePath());
        this.plain = CatalogRegistry.create(Map.of(catalogName, properties));
        Map<String, String> withReporter = new HashMap<>(properties);
        withReporter.put(CatalogProperties.METRICS_REPORTER_IMPL, KafkaCommitReporter.class.getName());
        withReporter.put(KafkaCommitReporter.BOOTSTRAP_SERVERS, environment.kafkaBootstrap());
        withReporter.put(KafkaCommitReporter.CATALOG, catalogName);
        // as the reporter's principal of the local broker, as a writer with Cryo's jar would
        withReporter.putAll(KafkaCommitReporter.producerProperties(
                KafkaClientSecurity.local(environment.runtime(), KafkaPrincipals.REPORTER).properties()));
        this.reporting = CatalogRegistry.create(Map.of(catalogName, withReporter));
    }

    public String catalogName() {
        return catalogName;
    }

    /** The registry of the plain catalog, which the DAG's native engine uses. */
    public CatalogRegistry plainRegistry() {
        return plain;
    }

    public void createNamespace(String namespace) {
        SupportsNamespaces namespaces = (SupportsNamespaces) plain.catalog(catalogName);
        if (!namespaces.namespaceExists(Namespace.of(namespace))) {
            namespaces.createNamespace(Namespace.of(namespace));
        }
    }

    /** Creates a table of the events schema; returns it loaded through the chosen catalog. */
    public Table create(String namespace, String name, long targetFileSizeBytes, boolean reported) {
        plain.catalog(catalogName).createTable(TableIdentifier.of(namespace, name), SampleTables.EVENTS, DAY_SPEC,
                Map.of(TableProperties.FORMAT_VERSION, "2",
                        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, String.valueOf(targetFileSizeBytes)));
        return load(namespace, name, reported);
    }

    /** The table, through the catalog with the commit reporter (reported) or the plain one. */
    public Table load(String namespace, String name, boolean reported) {
        Catalog catalog = (reported ? reporting : plain).catalog(catalogName);
        return catalog.loadTable(TableIdentifier.of(namespace, name));
    }

    public TableId id(String namespace, String name) {
        return TableId.of(catalogName, namespace, name);
    }

    @Override
    public void close() throws IOException {
        try {
            reporting.close();
        } finally {
            plain.close();
        }
    }
}
