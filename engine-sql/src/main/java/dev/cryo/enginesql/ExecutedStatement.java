package dev.cryo.enginesql;

import java.time.Duration;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One statement an engine ran: what the audit trail records.
 *
 * @param sql the statement
 * @param queryId the engine's id of it (Trino's query id; for Spark Connect, session id and operation tag)
 * @param rows the rows it returned, each value as text (null stays null)
 * @param elapsed wall time seen by the client
 */
public record ExecutedStatement(String sql, String queryId, List<List<String>> rows, Duration elapsed) {

    public ExecutedStatement {
        requireNonNull(sql, "sql is null");
        requireNonNull(queryId, "queryId is null");
        rows = rows.stream().map(row -> java.util.Collections.unmodifiableList(new java.util.ArrayList<>(row))).toList();
        requireNonNull(elapsed, "elapsed is null");
    }
}
