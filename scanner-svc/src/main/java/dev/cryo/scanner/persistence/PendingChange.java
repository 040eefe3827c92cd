package dev.cryo.scanner.persistence;

import dev.cryo.contracts.TableId;

import java.time.Instant;

/**
 * The newest change of a table that waits for a scan.
 *
 * @param version the table's change version this change brought it to
 * @param changeId the CloudEvents id of the newest coalesced TableChanged (the scan's correlation id)
 * @param pendingSince when the oldest change not yet scanned was detected (for change-to-scan latency)
 */
public record PendingChange(TableId table, long version, String changeId, String source, String actor,
                            Instant detectedAt, Instant committedAt, String cryoJobId, Instant pendingSince) {
}
