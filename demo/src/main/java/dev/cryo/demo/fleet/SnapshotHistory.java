package dev.cryo.demo.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Gives a table that was written in seconds the history of one written over weeks: the
 * snapshots keep their order, files and ids, and get older timestamps. This is how the demo
 * shows snapshot pile-ups and old snapshots (the snapshot-age check, and what expire_snapshots
 * with a 7-day retention actually removes) without waiting a month.
 *
 * <p>Iceberg stamps a snapshot with the time of its commit, so the timestamps are changed in a
 * copy of the table metadata, which is committed as the table's next metadata file through the
 * catalog like any other commit. Snapshot timestamps must keep increasing with the sequence
 * number; later commits (live writers, Cryo's jobs) are newer than all of them.
 */
final class SnapshotHistory {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * @param table the table
     * @param timestampOfSnapshot the timestamp of the i-th snapshot, oldest first; must increase with i
     */
    static void rewrite(Table table, IntFunction<Instant> timestampOfSnapshot) {
        TableOperations operations = ((HasTableOperations) table).operations();
        TableMetadata base = operations.refresh();
        ObjectNode metadata;
        try {
            metadata = (ObjectNode) JSON.readTree(TableMetadataParser.toJson(base));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the metadata of " + table.name() + ": " + e.getMessage(), e);
        }
        List<JsonNode> snapshots = new ArrayList<>();
        metadata.withArray("snapshots").forEach(snapshots::add);
        snapshots.sort(Comparator.comparingLong(snapshot -> snapshot.path("sequence-number").asLong()));
        Map<Long, Long> timestamps = new HashMap<>();
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < snapshots.size(); i++) {
            long timestamp = timestampOfSnapshot.apply(i).toEpochMilli();
            if (timestamp <= previous) {
                throw new IllegalArgumentException("Cannot backdate " + table.name() + ": snapshot timestamps must increase, "
                        + "snapshot " + i + " got " + Instant.ofEpochMilli(timestamp) + " after " + Instant.ofEpochMilli(previous));
            }
            if (timestamp > base.lastUpdatedMillis()) {
                throw new IllegalArgumentException("Cannot backdate " + table.name() + ": snapshot " + i + " would be newer ("
                        + Instant.ofEpochMilli(timestamp) + ") than the table's last update");
            }
            previous = timestamp;
            ObjectNode snapshot = (ObjectNode) snapshots.get(i);
            snapshot.put("timestamp-ms", timestamp);
            timestamps.put(snapshot.path("snapshot-id").asLong(), timestamp);
        }
        metadata.withArray("snapshot-log").forEach(entry -> {
            Long timestamp = timestamps.get(entry.path("snapshot-id").asLong());
            if (timestamp != null) {
                ((ObjectNode) entry).put("timestamp-ms", timestamp);
            }
        });
        TableMetadata backdated = TableMetadataParser.fromJson(base.metadataFileLocation(), metadata.toString());
        operations.commit(base, backdated);
        table.refresh();
    }

    private SnapshotHistory() {
    }
}
