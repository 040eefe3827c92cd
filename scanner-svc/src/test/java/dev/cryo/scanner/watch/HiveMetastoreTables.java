package dev.cryo.scanner.watch;

import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

import java.util.List;

/** Removes a test's namespaces from the shared metastore, whatever state their tables are in. */
final class HiveMetastoreTables {

    static void dropAll(Catalog catalog, List<Namespace> namespaces) {
        for (Namespace namespace : namespaces) {
            // without purge the Hive catalog drops the entry without reading the table's metadata
            for (TableIdentifier table : catalog.listTables(namespace)) {
                catalog.dropTable(table, false);
            }
            ((SupportsNamespaces) catalog).dropNamespace(namespace);
        }
    }

    private HiveMetastoreTables() {
    }
}
