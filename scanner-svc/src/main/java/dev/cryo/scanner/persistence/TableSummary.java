package dev.cryo.scanner.persistence;

import java.time.Instant;

/**
 * What the scanner knows about one table, as the REST API lists it.
 *
 * @param table the table id
 * @param lastScannedAt when its last scan finished (null: never scanned)
 * @param lastScanSource the change source that led to that scan
 * @param lastSnapshotId the snapshot that scan read
 * @param pending true while a change waits for a scan
 * @param lastError why the last attempt failed (null after a successful scan)
 * @param lastErrorAt when it failed
 * @param orphansListedAt when the last orphan listing ran
 */
public record TableSummary(String table, Instant lastScannedAt, String lastScanSource, Long lastSnapshotId,
                           boolean pending, String lastError, Instant lastErrorAt, Instant orphansListedAt) {
}
