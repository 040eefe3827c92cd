package dev.cryo.governor.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.governor.domain.EngineLoad;
import dev.cryo.governor.domain.MaintenanceWindow;
import dev.cryo.governor.domain.Pause;
import dev.cryo.governor.domain.PolicyRule;
import dev.cryo.governor.domain.TablePattern;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static dev.cryo.governor.persistence.Jdbc.instant;
import static dev.cryo.governor.persistence.Jdbc.nullableInt;

/** What operators set: pauses, policies and engine settings, each with who set it. Callers hold a transaction. */
@ApplicationScoped
public class RuleStore {

    /**
     * An engine's settings, and the load its last decision saw.
     *
     * @param lastLoad the last load reading (empty before the first decision on the engine)
     */
    public record EngineSetting(Engine engine, int slots, int maxForeignQueries, String updatedBy, Instant updatedAt,
                                Optional<EngineLoad> lastLoad) {
    }

    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };
    private static final String ENGINE_COLUMNS = "engine, slots, max_foreign_queries, updated_by, updated_at, "
            + "load_queries, load_limit, load_problem, load_observed_at";

    private final Jdbc jdbc;

    RuleStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The pauses as an admission must see them: under a shared lock that a new pause takes
     * exclusively ({@link #lockPausesForChange}) until its transaction ends. Without it an
     * admission that read no pause and a pause that read no lock (neither committed yet) would
     * both go ahead, and the job would run on a paused table unrevoked.
     */
    public List<Pause> pausesForAdmission() {
        jdbc.query("SELECT pg_advisory_xact_lock_shared(" + PAUSES_LOCK + ") IS NULL AS locked", row -> row.getBoolean("locked"));
        return pauses();
    }

    /** Waits for the admissions in flight to commit and holds new ones back until this transaction ends. */
    public void lockPausesForChange() {
        jdbc.query("SELECT pg_advisory_xact_lock(" + PAUSES_LOCK + ") IS NULL AS locked", row -> row.getBoolean("locked"));
    }

    /** The advisory lock key that orders pauses and admissions (this schema's, so instances of other schemas do not contend). */
    private static final String PAUSES_LOCK = "hashtextextended(current_schema() || '/pauses', 0)";

    public List<Pause> pauses() {
        return jdbc.query("SELECT pause_id, pattern, reason, paused_by, paused_at FROM pause ORDER BY paused_at, pause_id",
                row -> new Pause(row.getString("pause_id"), TablePattern.parse(row.getString("pattern")),
                        row.getString("reason"), row.getString("paused_by"), instant(row, "paused_at")));
    }

    public void insertPause(Pause pause) {
        jdbc.update("INSERT INTO pause (pause_id, pattern, reason, paused_by, paused_at) VALUES (?, ?, ?, ?, ?)",
                pause.id(), pause.pattern().text(), pause.reason(), pause.pausedBy(), pause.pausedAt());
    }

    public boolean deletePause(String pauseId) {
        return jdbc.update("DELETE FROM pause WHERE pause_id = ?", pauseId) == 1;
    }

    public List<PolicyRule> policies() {
        return jdbc.query("SELECT pattern, cooldown, windows, engine, updated_by, updated_at FROM policy ORDER BY pattern",
                RuleStore::policy);
    }

    public void upsertPolicy(PolicyRule rule) {
        jdbc.update("INSERT INTO policy (pattern, cooldown, windows, engine, updated_by, updated_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (pattern) DO UPDATE SET cooldown = EXCLUDED.cooldown, "
                        + "windows = EXCLUDED.windows, engine = EXCLUDED.engine, updated_by = EXCLUDED.updated_by, "
                        + "updated_at = EXCLUDED.updated_at",
                rule.pattern().text(), rule.cooldown().map(Duration::toString).orElse(null),
                rule.windows().map(windows -> EventJson.writeString(
                        windows.stream().map(MaintenanceWindow::expression).toList())).orElse(null),
                rule.engine().map(Engine::id).orElse(null), rule.updatedBy(), rule.updatedAt());
    }

    public boolean deletePolicy(String pattern) {
        return jdbc.update("DELETE FROM policy WHERE pattern = ?", pattern) == 1;
    }

    /** Creates the engine's row from configuration, unless an operator's settings exist. */
    public void seedEngine(Engine engine, int slots, int maxForeignQueries, Instant now) {
        jdbc.update("INSERT INTO engine_setting (engine, slots, max_foreign_queries, updated_by, updated_at) "
                + "VALUES (?, ?, ?, 'configuration', ?) ON CONFLICT (engine) DO NOTHING", engine.id(), slots,
                maxForeignQueries, now);
    }

    public List<EngineSetting> engines() {
        return jdbc.query("SELECT " + ENGINE_COLUMNS + " FROM engine_setting ORDER BY engine", RuleStore::engineSetting);
    }

    public Optional<EngineSetting> engine(Engine engine) {
        return jdbc.queryOne("SELECT " + ENGINE_COLUMNS + " FROM engine_setting WHERE engine = ?",
                RuleStore::engineSetting, engine.id());
    }

    /**
     * Locks the engine's row until the transaction ends: decisions that could take a slot of the
     * engine, and releases that free one, happen one at a time across governor instances.
     */
    public Optional<EngineSetting> lockEngine(Engine engine) {
        return jdbc.queryOne("SELECT " + ENGINE_COLUMNS + " FROM engine_setting WHERE engine = ? FOR UPDATE",
                RuleStore::engineSetting, engine.id());
    }

    public void updateEngine(Engine engine, int slots, int maxForeignQueries, String updatedBy, Instant updatedAt) {
        jdbc.update("UPDATE engine_setting SET slots = ?, max_foreign_queries = ?, updated_by = ?, updated_at = ? "
                + "WHERE engine = ?", slots, maxForeignQueries, updatedBy, updatedAt, engine.id());
    }

    public void recordLoad(EngineLoad load) {
        jdbc.update("UPDATE engine_setting SET load_queries = ?, load_limit = ?, load_problem = ?, load_observed_at = ? "
                        + "WHERE engine = ? AND (load_observed_at IS NULL OR load_observed_at <= ?)",
                load.foreignQueries().isPresent() ? load.foreignQueries().getAsInt() : null, load.limit(),
                load.problem().orElse(null), load.observedAt(), load.engine().id(), load.observedAt());
    }

    private static PolicyRule policy(ResultSet row) throws SQLException {
        String windows = row.getString("windows");
        Optional<List<MaintenanceWindow>> parsed;
        try {
            parsed = windows == null ? Optional.empty() : Optional.of(EventJson.mapper().readValue(windows, STRINGS)
                    .stream().map(MaintenanceWindow::parse).toList());
        } catch (JsonProcessingException e) {
            throw new SQLException("policy " + row.getString("pattern") + " has unreadable windows: " + e.getMessage(), e);
        }
        return new PolicyRule(TablePattern.parse(row.getString("pattern")),
                Optional.ofNullable(row.getString("cooldown")).map(Duration::parse), parsed,
                Optional.ofNullable(row.getString("engine")).map(Engine::fromId), row.getString("updated_by"),
                instant(row, "updated_at"));
    }

    private static EngineSetting engineSetting(ResultSet row) throws SQLException {
        Engine engine = Engine.fromId(row.getString("engine"));
        Instant observedAt = instant(row, "load_observed_at");
        Optional<EngineLoad> load = Optional.empty();
        if (observedAt != null) {
            Integer queries = nullableInt(row, "load_queries");
            Integer limit = nullableInt(row, "load_limit");
            String problem = row.getString("load_problem");
            int effectiveLimit = limit == null ? 0 : limit;
            load = Optional.of(problem != null ? EngineLoad.unreadable(engine, effectiveLimit, observedAt, problem)
                    : queries != null ? EngineLoad.measured(engine, queries, effectiveLimit, observedAt)
                    : EngineLoad.unmeasured(engine, observedAt));
        }
        return new EngineSetting(engine, row.getInt("slots"), row.getInt("max_foreign_queries"),
                row.getString("updated_by"), instant(row, "updated_at"), load);
    }
}
