package dev.cryo.audit.domain;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A stored audit row: the record as ingested, and its place in the chain.
 *
 * @param id its place in the chain
 * @param recordedAt when the audit stored it
 * @param record what was stored
 * @param previousHash the hash of the row before
 * @param rowHash its hash
 */
public record AuditRow(long id, Instant recordedAt, AuditRecord record, String previousHash, String rowHash) {
    public AuditRow {
        requireNonNull(recordedAt, "recordedAt is null");
        requireNonNull(record, "record is null");
        requireNonNull(previousHash, "previousHash is null");
        requireNonNull(rowHash, "rowHash is null");
    }

    /** Where the row sits in a newest-first listing. */
    public PageCursor cursor() {
        return new PageCursor(record.eventTime(), id);
    }
}
