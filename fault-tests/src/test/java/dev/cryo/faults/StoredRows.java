package dev.cryo.faults;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.testsupport.HostileRecords;
import dev.cryo.testsupport.Infrastructure;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the services stored in PostgreSQL, read directly: the governor's outbox and jobs, and the
 * audit's rows. A fault must leave these as a clean run does, which the services' APIs cannot always
 * show (an outbox row not yet published has no API of its own).
 */
final class StoredRows {

    private StoredRows() {
    }

    /** JobAdmitted rows of the table in the governor's outbox that the relay has not published yet. */
    static long unpublishedAdmissions(TableId table) throws SQLException {
        return Long.parseLong(strings("SELECT count(*) FROM governor.outbox WHERE subject = ? AND event_type = ?"
                + " AND published_at IS NULL", table.toString(), EventType.JOB_ADMITTED.id()).get(0));
    }

    /** The event id of the table's JobAdmitted in the governor's outbox. */
    static String outboxAdmission(TableId table) throws SQLException {
        return strings("SELECT event_id FROM governor.outbox WHERE subject = ? AND event_type = ?", table.toString(),
                EventType.JOB_ADMITTED.id()).get(0);
    }

    /** The governor's jobs of the table, oldest admission first. */
    static List<String> governorJobs(TableId table) throws SQLException {
        return strings("SELECT job_id FROM governor.job WHERE table_id = ? ORDER BY admitted_at", table.toString());
    }

    /** Audit rows of records published under that key on the event topics, kept byte for byte (6 MiB and a count). */
    static long auditedWithKey(String key) throws SQLException {
        return Long.parseLong(strings("SELECT count(*) FROM audit.audit_event WHERE kafka_key = ?"
                + " AND kafka_topic NOT LIKE 'cryo.dlq.%' AND octet_length(raw_value) = ?", key,
                HostileRecords.OVERSIZED_BYTES + 4).get(0));
    }

    /** The first column of every row of the query, as text. */
    private static List<String> strings(String sql, Object... parameters) throws SQLException {
        try (Connection connection = DriverManager.getConnection(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword());
             PreparedStatement query = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                query.setObject(i + 1, parameters[i]);
            }
            List<String> values = new ArrayList<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
            return values;
        }
    }
}
