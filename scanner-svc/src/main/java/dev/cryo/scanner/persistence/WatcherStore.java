package dev.cryo.scanner.persistence;

import dev.cryo.contracts.TableId;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The watcher's memory (last metadata pointer per table) and the catalogs' health. */
@ApplicationScoped
public class WatcherStore {

    private final AgroalDataSource dataSource;

    WatcherStore(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    public Map<TableId, String> pointers(String catalog) {
        Map<TableId, String> pointers = new HashMap<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT table_id, metadata_location FROM watched_pointer WHERE catalog = ?")) {
            select.setString(1, catalog);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    pointers.put(TableId.parse(rows.getString(1)), rows.getString(2));
                }
            }
        } catch (SQLException e) {
            throw TableStateStore.unavailable("read the watcher's pointers of " + catalog, e);
        }
        return pointers;
    }

    /** Remembers the catalog's pointers now: changed and new ones are written, vanished tables forgotten. */
    public void savePointers(String catalog, Map<TableId, String> changed, List<TableId> vanished) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement upsert = connection.prepareStatement("""
                         INSERT INTO watched_pointer (table_id, catalog, metadata_location) VALUES (?, ?, ?)
                         ON CONFLICT (table_id) DO UPDATE SET metadata_location = excluded.metadata_location""");
                 PreparedStatement delete = connection.prepareStatement("DELETE FROM watched_pointer WHERE table_id = ?")) {
                for (Map.Entry<TableId, String> entry : changed.entrySet()) {
                    upsert.setString(1, entry.getKey().toString());
                    upsert.setString(2, catalog);
                    upsert.setString(3, entry.getValue());
                    upsert.addBatch();
                }
                upsert.executeBatch();
                for (TableId table : vanished) {
                    delete.setString(1, table.toString());
                    delete.addBatch();
                }
                delete.executeBatch();
                connection.commit();
            } catch (SQLException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw TableStateStore.unavailable("save the watcher's pointers of " + catalog, e);
        }
    }

    public void recordPoll(String catalog, int tables, Instant polledAt) {
        upsertStatus(catalog, true, tables, polledAt, null);
    }

    public void recordPollFailure(String catalog, Instant polledAt, String error) {
        upsertStatus(catalog, false, null, polledAt, error);
    }

    private void upsertStatus(String catalog, boolean reachable, Integer tables, Instant polledAt, String error) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement upsert = connection.prepareStatement("""
                     INSERT INTO catalog_state (catalog, reachable, tables, last_poll_at, last_error, last_error_at)
                     VALUES (?, ?, ?, ?, ?, ?)
                     ON CONFLICT (catalog) DO UPDATE SET reachable = excluded.reachable,
                         tables = COALESCE(excluded.tables, catalog_state.tables), last_poll_at = excluded.last_poll_at,
                         last_error = excluded.last_error,
                         last_error_at = COALESCE(excluded.last_error_at, catalog_state.last_error_at)""")) {
            upsert.setString(1, catalog);
            upsert.setBoolean(2, reachable);
            if (tables == null) {
                upsert.setNull(3, java.sql.Types.INTEGER);
            } else {
                upsert.setInt(3, tables);
            }
            upsert.setTimestamp(4, Timestamp.from(polledAt));
            upsert.setString(5, error);
            upsert.setTimestamp(6, error == null ? null : Timestamp.from(polledAt));
            upsert.executeUpdate();
        } catch (SQLException e) {
            throw TableStateStore.unavailable("record the poll of catalog " + catalog, e);
        }
    }

    public Optional<CatalogStatus> status(String catalog) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT reachable, tables, last_poll_at, last_error, last_error_at FROM catalog_state WHERE catalog = ?")) {
            select.setString(1, catalog);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                Timestamp polled = row.getTimestamp(3);
                Timestamp failed = row.getTimestamp(5);
                return Optional.of(new CatalogStatus(catalog, row.getBoolean(1), row.getObject(2, Integer.class),
                        polled == null ? null : polled.toInstant(), row.getString(4),
                        failed == null ? null : failed.toInstant()));
            }
        } catch (SQLException e) {
            throw TableStateStore.unavailable("read the status of catalog " + catalog, e);
        }
    }

    public List<String> knownCatalogs() {
        List<String> catalogs = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement("SELECT catalog FROM catalog_state ORDER BY catalog");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                catalogs.add(rows.getString(1));
            }
        } catch (SQLException e) {
            throw TableStateStore.unavailable("list catalogs", e);
        }
        return catalogs;
    }
}
