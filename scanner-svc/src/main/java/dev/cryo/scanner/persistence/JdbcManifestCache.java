package dev.cryo.scanner.persistence;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.platform.error.CryoException;
import dev.cryo.scanner.ScannerErrorCode;
import dev.cryo.scanner.domain.ManifestAggregate;
import dev.cryo.scanner.iceberg.ManifestCache;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Per-manifest aggregates in PostgreSQL ({@code manifest_aggregate}), so that a restarted
 * scanner, or another instance, does not read a manifest twice. Plain JDBC: aggregates are stored once
 * by whichever instance read the manifest first ({@code ON CONFLICT DO NOTHING}).
 */
public final class JdbcManifestCache implements ManifestCache {

    private static final TypeReference<List<PartitionStats>> PARTITIONS = new TypeReference<>() {
    };
    private static final int BATCH = 1000;

    private final DataSource dataSource;
    private final ObjectMapper json = EventJson.mapper();

    public JdbcManifestCache(DataSource dataSource) {
        this.dataSource = requireNonNull(dataSource, "dataSource is null");
    }

    @Override
    public Map<String, ManifestAggregate> find(Collection<String> manifestPaths, FileSizeTerms terms) {
        Map<String, ManifestAggregate> found = new HashMap<>();
        if (manifestPaths.isEmpty()) {
            return found;
        }
        List<String> paths = new ArrayList<>(manifestPaths);
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT manifest_path, partitions FROM manifest_aggregate WHERE terms = ? AND manifest_path = ANY (?)")) {
            for (int from = 0; from < paths.size(); from += BATCH) {
                Array array = connection.createArrayOf("text", paths.subList(from, Math.min(paths.size(), from + BATCH)).toArray());
                select.setString(1, key(terms));
                select.setArray(2, array);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        String path = rows.getString(1);
                        found.put(path, new ManifestAggregate(path, json.readValue(rows.getString(2), PARTITIONS)));
                    }
                }
                array.free();
            }
        } catch (SQLException e) {
            throw new CryoException(ScannerErrorCode.DATABASE_UNAVAILABLE, "Cannot read cached manifest aggregates: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read cached manifest aggregates: " + e.getMessage(), e);
        }
        return found;
    }

    @Override
    public void store(Collection<ManifestAggregate> aggregates, FileSizeTerms terms) {
        if (aggregates.isEmpty()) {
            return;
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(
                     "INSERT INTO manifest_aggregate (manifest_path, terms, partitions) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
            int pending = 0;
            for (ManifestAggregate aggregate : aggregates) {
                insert.setString(1, aggregate.manifestPath());
                insert.setString(2, key(terms));
                insert.setString(3, json.writeValueAsString(aggregate.partitions()));
                insert.addBatch();
                if (++pending == BATCH) {
                    insert.executeBatch();
                    pending = 0;
                }
            }
            if (pending > 0) {
                insert.executeBatch();
            }
        } catch (SQLException e) {
            throw new CryoException(ScannerErrorCode.DATABASE_UNAVAILABLE, "Cannot cache manifest aggregates: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot cache manifest aggregates: " + e.getMessage(), e);
        }
    }

    static String key(FileSizeTerms terms) {
        return terms.targetFileSizeBytes() + "/" + terms.smallFileThresholdBytes() + "/" + terms.oversizedFileThresholdBytes();
    }
}
