package dev.cryo.audit.rest;

import dev.cryo.audit.domain.AnchorCheck;
import dev.cryo.audit.domain.ChainBreak;
import dev.cryo.audit.domain.VerifyReport;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The smaller answers of the audit API. */
final class AuditViews {

    /**
     * One page of the newest-first listing.
     *
     * @param items the rows, newest first
     * @param next the cursor of the next page ({@code after=}); absent on the last page
     */
    record Page(List<AuditEventView> items, String next) {
    }

    /**
     * A table change from its start to its result.
     *
     * @param correlationId the id of the TableChanged that started it
     * @param table the table
     * @param stages the stages reached, in order
     * @param events the events of the chain, oldest first
     * @param more absent when {@code events} is the whole chain; otherwise why it stops and how to see the rest
     */
    record Timeline(String correlationId, String table, List<String> stages, List<AuditEventView> events, String more) {
    }

    /**
     * The chain, recomputed.
     *
     * @param status OK or BROKEN
     * @param rowsChecked rows whose hash was recomputed
     * @param rowsArchived rows of archived months, stepped over with their recorded links
     * @param lastId the last row checked
     * @param lastHash its hash: note it somewhere else to detect a rewrite of the whole chain later
     * @param firstBreak the first link that does not hold
     * @param breakCount how many links do not hold
     * @param brokenRowIds the rows that do not hold (up to cryo.audit.verify.max-reported-breaks)
     * @param durationMillis how long verification took
     * @param anchoring how the chain is protected against a re-chain by whoever holds the database
     */
    record Verification(String status, long rowsChecked, long rowsArchived, long lastId, String lastHash,
                        Break firstBreak, long breakCount, List<Long> brokenRowIds, long durationMillis,
                        Anchoring anchoring) {

        static Verification of(VerifyReport report, AnchorCheck anchors, long durationMillis) {
            ChainBreak first = report.firstBreak();
            return new Verification(report.intact() && !anchors.broken() ? "OK" : "BROKEN", report.rowsChecked(),
                    report.rowsArchived(), report.lastId(), report.lastHash(),
                    first == null ? null : new Break(first.id(), first.problem(), first.expected(), first.stored()),
                    report.breakCount(), report.brokenRowIds(), durationMillis, Anchoring.of(anchors));
        }
    }

    /**
     * The chain checked against its latest anchor outside the database.
     *
     * @param method {@code kafka-anchors}: the head is anchored on {@code topic}
     * @param topic where the anchors are
     * @param status OK, MISMATCH, NONE (nothing anchored yet) or UNAVAILABLE
     * @param anchoredId the anchored row (optional)
     * @param anchoredHash its hash when anchored (optional)
     * @param anchoredAt when (optional)
     * @param message what it means
     */
    record Anchoring(String method, String topic, String status, Long anchoredId, String anchoredHash,
                     java.time.Instant anchoredAt, String message) {

        static Anchoring of(AnchorCheck check) {
            return new Anchoring(AnchorCheck.METHOD, dev.cryo.contracts.Topics.AUDIT_ANCHORS, check.status(),
                    check.anchor() == null ? null : check.anchor().lastId(),
                    check.anchor() == null ? null : check.anchor().lastHash(),
                    check.anchor() == null ? null : check.anchor().anchoredAt(), check.message());
        }
    }

    /**
     * A link that does not hold.
     *
     * @param id the row
     * @param problem what is wrong
     * @param expectedHash what verification computed or expected
     * @param storedHash what the row stores
     */
    record Break(long id, String problem, String expectedHash, String storedHash) {
    }

    /**
     * How far ingestion trails the topics.
     *
     * @param lagByTopic records not stored yet, per topic
     * @param totalLag their sum
     * @param measuredAt when the broker was asked
     */
    record Ingest(Map<String, Long> lagByTopic, long totalLag, Instant measuredAt) {
    }

    private AuditViews() {
    }
}
