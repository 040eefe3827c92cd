package dev.cryo.governor.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/** How the governor admits work. Policies set through the API override the per-table defaults here. */
@ConfigMapping(prefix = "cryo.governor")
public interface GovernorConfig {

    /** Least time between the end of one job on a table and the start of the next, unless a policy says otherwise. */
    @WithDefault("PT10M")
    Duration cooldown();

    /** Engine that jobs run on unless a policy says otherwise: native, trino or spark. */
    @WithDefault("native")
    String defaultEngine();

    /** How long a job holds its table after admission or its executor's last heartbeat. */
    @WithDefault("PT2M")
    Duration lease();

    /** How many times a job whose lease ran out is admitted again before its table is released. */
    @WithDefault("3")
    int maxAttempts();

    /** How soon a plan that waits for a lock, the engine's load or a slot is looked at again without an event. */
    @WithDefault("PT30S")
    Duration recheckInterval();

    /** How often the governor re-evaluates due plans, expires leases and publishes what is left in its outbox. */
    @WithDefault("PT5S")
    Duration reevaluationInterval();

    /** Maintenance slots per engine, used until an operator sets them with PUT /api/v1/engines/{engine}. */
    Slots slots();

    /** Jobs that fail. */
    Failures failures();

    /** Where the governor reads Trino's load. */
    Trino trino();

    interface Failures {
        /** Jobs in a row that may fail with the same error a retry does not cure before their table is blocked. */
        @WithDefault("3")
        int maxAttempts();

        /** The wait before the next job on a table after its last job failed; it doubles with every further failure. */
        @WithDefault("PT5M")
        Duration backoff();

        /**
         * Error codes that a retry may cure: a job failing with one is tried again as usual and never
         * blocks its table (commit conflicts, timeouts, unreachable engines or storage).
         */
        @WithDefault("COMMIT_CONFLICT,COMMIT_STATE_UNKNOWN,ENGINE_TIMEOUT,ENGINE_UNREACHABLE,ENGINE_CANCELLED,"
                + "STORAGE_FAILURE,JOB_HELD_ELSEWHERE,DEPENDENCY_UNAVAILABLE")
        Set<String> transientErrorCodes();
    }

    interface Slots {
        /** Concurrent jobs on Cryo's embedded native engine. */
        @WithName("native")
        @WithDefault("2")
        int nativeEngine();

        /** Concurrent jobs on Trino. */
        @WithDefault("1")
        int trino();

        /** Concurrent jobs on Spark. */
        @WithDefault("1")
        int spark();
    }

    interface Trino {
        /** JDBC URL of the Trino coordinator, e.g. jdbc:trino://127.0.0.1:8080; without it Trino is never admitted to. */
        Optional<String> jdbcUrl();

        /** The Trino user the governor reads as, and the user whose queries count as Cryo's own (not load). */
        @WithDefault("cryo")
        String user();

        /** Password of that user; only from the environment (CRYO_GOVERNOR_TRINO_PASSWORD). */
        Optional<String> password();

        /** Most running or queued queries that are not Cryo's under which Cryo still adds work, until set by the API. */
        @WithDefault("10")
        int maxForeignQueries();

        /** How long one reading of the load is reused, so a burst of decisions asks Trino once. */
        @WithDefault("PT5S")
        Duration loadCacheDuration();

        /** How long the governor waits for Trino to answer before it counts the load as unreadable. */
        @WithDefault("PT5S")
        Duration queryTimeout();
    }
}
