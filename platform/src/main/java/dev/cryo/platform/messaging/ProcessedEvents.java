package dev.cryo.platform.messaging;

import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The idempotent consumer's memory (after Debezium's outbox example): the ids of events a
 * consumer has handled, written in the same transaction as the work. Plain JDBC: one insert-if-absent
 * ({@code ON CONFLICT DO NOTHING}) tells a redelivery, in every service, with Hibernate or without.
 */
@ApplicationScoped
public class ProcessedEvents {

    private final AgroalDataSource dataSource;

    ProcessedEvents(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Records that {@code consumer} handled {@code eventId}. Must run inside the transaction of
     * the work itself.
     *
     * @return true the first time, false when the event was handled before (a redelivery)
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean markProcessed(String consumer, String eventId) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(
                     "INSERT INTO processed_event (consumer, event_id) VALUES (?, ?) ON CONFLICT DO NOTHING")) {
            insert.setString(1, consumer);
            insert.setString(2, eventId);
            return insert.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE,
                    "Cannot record processed event " + eventId + ": " + e.getMessage(), e);
        }
    }

    /** True when {@code consumer} has handled {@code eventId}. */
    public boolean isProcessed(String consumer, String eventId) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT 1 FROM processed_event WHERE consumer = ? AND event_id = ?")) {
            select.setString(1, consumer);
            select.setString(2, eventId);
            return select.executeQuery().next();
        } catch (SQLException e) {
            throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE,
                    "Cannot read processed events: " + e.getMessage(), e);
        }
    }
}
