package dev.cryo.scanner.watch;

import dev.cryo.contracts.TableId;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import io.quarkus.logging.Log;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.NoSuchTableException;

import java.util.HashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The pointers of any catalog (REST, Nessie, Hive, Glue, ...): list the tables, load each and
 * read its metadata file location. Loading reads each table's metadata JSON, so this costs a
 * request per table and poll; catalogs with a cheaper way get their own source.
 */
final class LoadingPointers implements PointerSource {

    private final String catalog;
    private final CatalogRegistry registry;

    LoadingPointers(String catalog, CatalogRegistry registry) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.registry = requireNonNull(registry, "registry is null");
    }

    @Override
    public Map<TableId, String> pointers() {
        Map<TableId, String> pointers = new HashMap<>();
        for (TableId table : registry.listTables(catalog)) {
            try {
                Table loaded = registry.load(table);
                if (loaded instanceof HasTableOperations operations && operations.operations().current() != null) {
                    pointers.put(table, operations.operations().current().metadataFileLocation());
                }
            } catch (NoSuchTableException e) {
                Log.debugf("Table %s vanished while the watcher polled", table);
            }
        }
        return pointers;
    }

    @Override
    public String method() {
        return "list and load every table";
    }
}
