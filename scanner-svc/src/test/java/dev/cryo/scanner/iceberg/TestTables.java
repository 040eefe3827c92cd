package dev.cryo.scanner.iceberg;

import dev.cryo.contracts.TableId;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.testsupport.Infrastructure;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/**
 * A JDBC catalog on the real PostgreSQL with a warehouse in a temporary folder, and a namespace
 * of its own, so tests of different runs never see each other's tables.
 */
final class TestTables implements AutoCloseable {

    static final String CATALOG = "lake";

    final CatalogRegistry registry;
    final Namespace namespace;

    TestTables(Path warehouse) {
        registry = CatalogRegistry.create(Map.of(CATALOG, LocalCatalogs.jdbc(Infrastructure.jdbcUrl(),
                Infrastructure.dbUser(), Infrastructure.dbPassword(), "scanner_iceberg_test", warehouse)));
        namespace = Namespace.of("ns_" + UUID.randomUUID().toString().substring(0, 8));
        ((SupportsNamespaces) catalog()).createNamespace(namespace);
    }

    Catalog catalog() {
        return registry.catalog(CATALOG);
    }

    Table create(String name, int formatVersion, PartitionSpec spec, Map<String, String> properties) {
        Map<String, String> all = new java.util.HashMap<>(properties);
        all.put(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion));
        return catalog().createTable(TableIdentifier.of(namespace, name), SampleTables.EVENTS, spec, all);
    }

    TableId id(Table table) {
        return TableId.of(CATALOG, namespace.toString(), table.name().substring(table.name().lastIndexOf('.') + 1));
    }

    @Override
    public void close() throws Exception {
        registry.close();
    }
}
