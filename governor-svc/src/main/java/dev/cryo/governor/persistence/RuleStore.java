package dev.cryo.governor.persistence;

import dev.cryo.contracts.Engine;
import dev.cryo.governor.domain.EngineLoad;
import dev.cryo.governor.domain.Pause;
import dev.cryo.governor.domain.PolicyRule;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static dev.cryo.governor.persistence.Jdbc.instant;
import static dev.cryo.governor.persistence.Jdbc.nullableInt;

/**
 * What operators set: pauses, policies and engine settings, each with who set it. Callers hold a
 * transaction. Pauses and policies are Panache entities; engine settings and the advisory locks stay
 * plain JDBC ({@link Jdbc}): row locks ({@code FOR UPDATE}) that order slot decisions across governor
 * instances and a conditional load update are database features read and written as SQL.
 */
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
        return PauseEntity.<PauseEntity>listAll(Sort.by("pausedAt").and("pauseId")).stream()
                .map(PauseEntity::toPause).toList();
    }

    /** Stores the pause at once (flushed), so that the admissions' plain-JDBC reads in this transaction see it. */
    public void insertPause(Pause pause) {
        PauseEntity.of(pause).persistAndFlush();
    }

    public boolean deletePause(String pauseId) {
        boolean deleted = PauseEntity.deleteById(pauseId);
        PauseEntity.flush();
        return deleted;
    }

    public List<PolicyRule> policies() {
        return PolicyEntity.<PolicyEntity>listAll(Sort.by("pattern")).stream().map(PolicyEntity::toRule).toList();
    }

    /**
     * Creates or replaces the policy of the rule's pattern. Changes of policies are serialized by a
     * transaction-scoped advisory lock, so two operators setting the same new pattern at once both
     * succeed, the later one last (a find-then-insert alone would fail one of them on the key).
     */
    public void upsertPolicy(PolicyRule rule) {
        jdbc.query("SELECT pg_advisory_xact_lock(" + POLICIES_LOCK + ") IS NULL AS locked", row -> row.getBoolean("locked"));
        PolicyEntity entity = PolicyEntity.findById(rule.pattern().text());
        if (entity == null) {
            entity = new PolicyEntity();
            entity.pattern = rule.pattern().text();
        }
        entity.set(rule);
        entity.persistAndFlush();
    }

    public boolean deletePolicy(String pattern) {
        boolean deleted = PolicyEntity.deleteById(pattern);
        PolicyEntity.flush();
        return deleted;
    }

    /** The advisory lock key that serializes policy changes (this schema's). */
    private static final String POLICIES_LOCK = "hashtextextended(current_schema() || '/policies', 0)";

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
