package dev.cryo.governor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.governor.config.GovernorConfig;
import dev.cryo.governor.domain.EngineLoad;
import dev.cryo.governor.domain.EngineLoadProbe;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The load of each engine as decisions see it. Trino is asked (at most once per cache period,
 * so a burst of decisions does not add load of its own); Spark and the native engine are
 * bounded by their slots alone.
 */
@ApplicationScoped
public class EngineLoads {

    /** One reading of Trino: a count, or why there is none. */
    private record Reading(OptionalInt foreignQueries, Optional<String> problem, Instant observedAt) {
    }

    private final EngineLoadProbe trino;
    private final Clock clock;
    private final Duration cacheDuration;
    private volatile Reading lastTrinoReading;

    EngineLoads(EngineLoadProbe trino, Clock clock, GovernorConfig config) {
        this.trino = trino;
        this.clock = clock;
        this.cacheDuration = config.trino().loadCacheDuration();
    }

    /** The engine's load now, judged against {@code limit} foreign queries. */
    public EngineLoad current(Engine engine, int limit) {
        Instant now = clock.instant();
        if (engine != Engine.TRINO) {
            return EngineLoad.unmeasured(engine, now);
        }
        Reading reading = trinoReading(now);
        return reading.problem()
                .map(problem -> EngineLoad.unreadable(engine, limit, reading.observedAt(), problem))
                .orElseGet(() -> EngineLoad.measured(engine, reading.foreignQueries().getAsInt(), limit,
                        reading.observedAt()));
    }

    /** Forgets the cached reading, so the next decision asks Trino again (an operator changed a limit). */
    public void refresh() {
        lastTrinoReading = null;
    }

    private synchronized Reading trinoReading(Instant now) {
        Reading cached = lastTrinoReading;
        if (cached != null && cached.observedAt().plus(cacheDuration).isAfter(now)) {
            return cached;
        }
        Reading reading;
        try {
            reading = new Reading(OptionalInt.of(trino.foreignQueries()), Optional.empty(), now);
        } catch (RuntimeException e) {
            Log.warnf("Cannot read Trino's load; plans for Trino wait until it can be read: %s", e.getMessage());
            reading = new Reading(OptionalInt.empty(), Optional.of(e.getMessage()), now);
        }
        lastTrinoReading = reading;
        return reading;
    }
}
