package dev.cryo.scanner.persistence;

import dev.cryo.contracts.TableId;
import dev.cryo.platform.persistence.EntityTransactions;
import dev.cryo.scanner.ScannerErrorCode;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The watcher's memory (last metadata pointer per table) and the catalogs' health, as Panache
 * entities. Two polls of one catalog can meet (an operator's poll during the scheduled one, or two
 * scanner instances): each write holds the catalog's lock ({@link EntityTransactions#lock}) until it
 * commits, so the second reads what the first stored instead of inserting the same rows again.
 */
@ApplicationScoped
public class WatcherStore {

    public Map<TableId, String> pointers(String catalog) {
        return inTransaction("read the watcher's pointers of " + catalog, () ->
                WatchedPointerEntity.<WatchedPointerEntity>list("catalog", catalog).stream().collect(Collectors.toMap(
                        row -> TableId.parse(row.tableId), row -> row.metadataLocation)));
    }

    /** Remembers the catalog's pointers now: changed and new ones are written, vanished tables forgotten. */
    public void savePointers(String catalog, Map<TableId, String> changed, List<TableId> vanished) {
        inTransaction("save the watcher's pointers of " + catalog, () -> {
            lock(catalog);
            Map<String, WatchedPointerEntity> stored = WatchedPointerEntity.<WatchedPointerEntity>list("catalog", catalog)
                    .stream().collect(Collectors.toMap(row -> row.tableId, Function.identity()));
            changed.forEach((table, location) -> {
                WatchedPointerEntity row = stored.get(table.toString());
                if (row == null) {
                    row = new WatchedPointerEntity();
                    row.tableId = table.toString();
                    row.catalog = catalog;
                    row.metadataLocation = location;
                    row.persist();
                } else {
                    row.metadataLocation = location;
                }
            });
            for (TableId table : vanished) {
                WatchedPointerEntity row = stored.get(table.toString());
                if (row != null) {
                    row.delete();
                }
            }
            return null;
        });
    }

    public void recordPoll(String catalog, int tables, Instant polledAt) {
        inTransaction("record the poll of catalog " + catalog, () -> {
            CatalogStateEntity state = lockedState(catalog);
            state.reachable = true;
            state.tables = tables;
            state.lastPollAt = polledAt;
            state.lastError = null;
            return null;
        });
    }

    /** Keeps the table count of the last successful poll. */
    public void recordPollFailure(String catalog, Instant polledAt, String error) {
        inTransaction("record the failed poll of catalog " + catalog, () -> {
            CatalogStateEntity state = lockedState(catalog);
            state.reachable = false;
            state.lastPollAt = polledAt;
            state.lastError = error;
            state.lastErrorAt = polledAt;
            return null;
        });
    }

    public Optional<CatalogStatus> status(String catalog) {
        return inTransaction("read the status of catalog " + catalog, () ->
                CatalogStateEntity.<CatalogStateEntity>findByIdOptional(catalog).map(CatalogStateEntity::toStatus));
    }

    public List<String> knownCatalogs() {
        return inTransaction("list catalogs", () -> CatalogStateEntity.<CatalogStateEntity>listAll(Sort.by("catalog"))
                .stream().map(state -> state.catalog).toList());
    }

    /** The catalog's state row, created if this is its first poll, under the catalog's lock. */
    private static CatalogStateEntity lockedState(String catalog) {
        lock(catalog);
        CatalogStateEntity state = CatalogStateEntity.findById(catalog);
        if (state == null) {
            state = new CatalogStateEntity();
            state.catalog = catalog;
            state.persist();
        }
        return state;
    }

    private static void lock(String catalog) {
        EntityTransactions.lock(WatchedPointerEntity.getEntityManager(), "watcher", catalog);
    }

    private static <T> T inTransaction(String action, Supplier<T> work) {
        return EntityTransactions.call(ScannerErrorCode.DATABASE_UNAVAILABLE, action, work);
    }
}
