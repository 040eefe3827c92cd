package dev.cryo.scanner.watch;

import dev.cryo.contracts.TableId;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import io.quarkus.logging.Log;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The pointers of any catalog (REST, Nessie, Hive, Glue, ...): list the tables, load each and
 * read its metadata file location. Loading reads each table's metadata JSON, so this costs a
 * request per table and poll; catalogs with a cheaper way get their own source.
 *
 * <p>A table whose current metadata file is gone is left out of the pointers, with a warning the
 * first time, and the catalog's other tables are watched as before: one broken entry in a shared
 * metastore must not blind Cryo to every other table. Any other failure (the catalog unreachable,
 * credentials refused) fails the whole poll, so an outage never reads as tables dropped.
 */
final class LoadingPointers implements PointerSource {

    private final String catalog;
    private final CatalogRegistry registry;
    private final Set<TableId> unreadable = new HashSet<>();

    LoadingPointers(String catalog, CatalogRegistry registry) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.registry = requireNonNull(registry, "registry is null");
    }

    @Override
    public Map<TableId, String> pointers() {
        Map<TableId, String> pointers = new HashMap<>();
        List<TableId> tables = registry.listTables(catalog);
        unreadable.retainAll(tables);
        for (TableId table : tables) {
            try {
                Table loaded = registry.load(table);
                if (loaded instanceof HasTableOperations operations && operations.operations().current() != null) {
                    pointers.put(table, operations.operations().current().metadataFileLocation());
                }
                unreadable.remove(table);
            } catch (NoSuchTableException e) {
                Log.debugf("Table %s vanished while the watcher polled", table);
            } catch (NotFoundException e) {
                if (unreadable.add(table)) {
                    Log.warnf("Cannot load table %s; the watcher leaves it out until it loads again: %s", table, e.getMessage());
                }
            }
        }
        return pointers;
    }

    @Override
    public String method() {
        return "list and load every table";
    }
}
