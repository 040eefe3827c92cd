package dev.cryo.contracts.event;

import dev.cryo.contracts.TableId;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A table may have changed. Starts every chain of events: its CloudEvents id is the
 * correlation id of everything that follows from it.
 *
 * @param table the table
 * @param source how the change was noticed
 * @param detectedAt when Cryo noticed it
 * @param snapshotId the new snapshot, when known (optional)
 * @param sequenceNumber its sequence number, when known (optional)
 * @param snapshotOperation Iceberg's snapshot operation ({@code append}, {@code overwrite}, {@code delete}, {@code replace}) (optional)
 * @param committedAt when the writer committed (optional)
 * @param metadataLocation the new metadata file, from the catalog watcher (optional)
 * @param cryoJobId the Cryo job that made this commit, when it was Cryo's own (optional)
 * @param actor who asked: an operator for manual scans, the writer's application for commit reports (optional)
 */
public record TableChanged(
        TableId table,
        ChangeSource source,
        Instant detectedAt,
        Long snapshotId,
        Long sequenceNumber,
        String snapshotOperation,
        Instant committedAt,
        String metadataLocation,
        String cryoJobId,
        String actor) implements CryoEvent {

    public TableChanged {
        requireNonNull(table, "table is null");
        requireNonNull(source, "source is null");
        requireNonNull(detectedAt, "detectedAt is null");
    }

    /** A change with nothing known but the table and the source. */
    public static TableChanged of(TableId table, ChangeSource source, Instant detectedAt) {
        return new TableChanged(table, source, detectedAt, null, null, null, null, null, null, null);
    }
}
