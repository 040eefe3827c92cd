package dev.cryo.audit.persistence;

import dev.cryo.audit.domain.ReplayRun;
import dev.cryo.platform.config.ServiceConfig;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The record of rebuilds and re-publications (table {@code replay_run} of the live schema). Plain JDBC:
 * the audit's log and its queries need SQL ({@link AuditStore}, {@link AuditQueries}), and this one small
 * table does not earn Hibernate's start-up time and memory in the service.
 */
@ApplicationScoped
public class ReplayRuns {

    private static final String COLUMNS = "id, kind, actor, requested_at, parameters, state, records_total, records_done, "
            + "message, result, updated_at";

    private final AgroalDataSource dataSource;
    private final String schema;
    private final Clock clock;

    ReplayRuns(AgroalDataSource dataSource, ServiceConfig service, Clock clock) {
        this.dataSource = dataSource;
        this.schema = AuditStore.checkSchemaName(service.schema());
        this.clock = clock;
    }

    /** Records a new, queued run. */
    public ReplayRun create(ReplayRun.Kind kind, String actor, String parametersJson) {
        UUID id = UUID.randomUUID();
        OffsetDateTime now = AuditRows.utc(clock.instant());
        update("INSERT INTO " + schema + ".replay_run (id, kind, actor, requested_at, parameters, state, updated_at) "
                + "VALUES (?, ?, ?, ?, ?::jsonb, ?, ?)", "record replay " + id, id, kind.id(), actor, now, parametersJson,
                ReplayRun.State.QUEUED.id(), now);
        return find(id).orElseThrow();
    }

    public void running(UUID id, String message) {
        update("UPDATE " + schema + ".replay_run SET state = ?, message = ?, updated_at = ? WHERE id = ?",
                "update replay " + id, ReplayRun.State.RUNNING.id(), message, AuditRows.utc(clock.instant()), id);
    }

    public void progress(UUID id, Long recordsTotal, long recordsDone, String message) {
        update("UPDATE " + schema + ".replay_run SET records_total = ?, records_done = ?, message = ?, updated_at = ? "
                + "WHERE id = ?", "update replay " + id, recordsTotal, recordsDone, message, AuditRows.utc(clock.instant()), id);
    }

    public void finish(UUID id, ReplayRun.State state, long recordsDone, String message, String resultJson) {
        update("UPDATE " + schema + ".replay_run SET state = ?, records_done = ?, message = ?, result = ?::jsonb, "
                + "updated_at = ? WHERE id = ?", "finish replay " + id, state.id(), recordsDone, message, resultJson,
                AuditRows.utc(clock.instant()), id);
    }

    public Optional<ReplayRun> find(UUID id) {
        List<ReplayRun> runs = select("SELECT " + COLUMNS + " FROM " + schema + ".replay_run WHERE id = ?", id);
        return runs.stream().findFirst();
    }

    /** The latest runs, newest first. */
    public List<ReplayRun> recent(int limit) {
        return select("SELECT " + COLUMNS + " FROM " + schema + ".replay_run ORDER BY requested_at DESC LIMIT ?", limit);
    }

    private void update(String sql, String action, Object... parameters) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, parameters);
            statement.executeUpdate();
        } catch (SQLException e) {
            throw SqlErrors.translate(action, e);
        }
    }

    private List<ReplayRun> select(String sql, Object... parameters) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, parameters);
            List<ReplayRun> runs = new ArrayList<>();
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    long total = result.getLong("records_total");
                    Long recordsTotal = result.wasNull() ? null : total;
                    runs.add(new ReplayRun(result.getObject("id", UUID.class),
                            ReplayRun.Kind.fromId(result.getString("kind")), result.getString("actor"),
                            result.getObject("requested_at", OffsetDateTime.class).toInstant(),
                            result.getString("parameters"), ReplayRun.State.fromId(result.getString("state")), recordsTotal,
                            result.getLong("records_done"), result.getString("message"), result.getString("result"),
                            result.getObject("updated_at", OffsetDateTime.class).toInstant()));
                }
            }
            return runs;
        } catch (SQLException e) {
            throw SqlErrors.translate("read replays", e);
        }
    }

    private static void bind(PreparedStatement statement, Object... parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i] == null) {
                statement.setNull(i + 1, Types.OTHER);
            } else {
                statement.setObject(i + 1, parameters[i]);
            }
        }
    }
}
