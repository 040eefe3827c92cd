package dev.cryo.governor.domain;

import dev.cryo.contracts.Engine;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * How busy an engine was when last asked. Trino is asked for its queries that are not Cryo's
 * own; Spark and the native engine have no live load to read: their configured slots alone
 * bound them.
 *
 * @param engine the engine
 * @param foreignQueries running and queued queries that are not Cryo's (empty when not measured)
 * @param limit the most foreign queries under which Cryo still adds work
 * @param observedAt when it was read
 * @param problem why the load could not be read (empty when it could, or need not be)
 */
public record EngineLoad(Engine engine, OptionalInt foreignQueries, int limit, Instant observedAt,
                         Optional<String> problem) {

    public EngineLoad {
        requireNonNull(engine, "engine is null");
        requireNonNull(foreignQueries, "foreignQueries is null");
        requireNonNull(observedAt, "observedAt is null");
        requireNonNull(problem, "problem is null");
        if (limit < 0) {
            throw new IllegalArgumentException("limit is negative: " + limit);
        }
    }

    /** An engine bounded by its slots only. */
    public static EngineLoad unmeasured(Engine engine, Instant observedAt) {
        return new EngineLoad(engine, OptionalInt.empty(), 0, observedAt, Optional.empty());
    }

    public static EngineLoad measured(Engine engine, int foreignQueries, int limit, Instant observedAt) {
        return new EngineLoad(engine, OptionalInt.of(foreignQueries), limit, observedAt, Optional.empty());
    }

    /** The engine could not be asked: Cryo adds no work to an engine it cannot see. */
    public static EngineLoad unreadable(Engine engine, int limit, Instant observedAt, String problem) {
        return new EngineLoad(engine, OptionalInt.empty(), limit, observedAt, Optional.of(problem));
    }

    /** True when Cryo must not add work: more foreign queries than the limit, or the load is unreadable. */
    public boolean isOverLimit() {
        return problem.isPresent() || (foreignQueries.isPresent() && foreignQueries.getAsInt() > limit);
    }
}
