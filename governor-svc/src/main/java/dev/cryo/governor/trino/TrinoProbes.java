package dev.cryo.governor.trino;

import dev.cryo.governor.config.GovernorConfig;
import dev.cryo.governor.domain.EngineLoadProbe;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** The Trino load probe the governor uses, from its configuration. */
@ApplicationScoped
public class TrinoProbes {

    @Produces
    @ApplicationScoped
    EngineLoadProbe trinoLoadProbe(GovernorConfig config) {
        GovernorConfig.Trino trino = config.trino();
        if (trino.jdbcUrl().isEmpty()) {
            return () -> {
                throw new IllegalStateException("cryo.governor.trino.jdbc-url is not set, so Trino's load is unknown");
            };
        }
        return new TrinoLoadProbe(trino.jdbcUrl().get(), trino.user(), trino.password(), trino.queryTimeout());
    }
}
