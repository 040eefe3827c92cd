package dev.cryo.console.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** The console's settings: where the services are, how long to wait for them, how sessions and pages behave. */
@ConfigMapping(prefix = "cryo.console")
public interface ConsoleConfig {

    /** Base URLs of the services whose REST APIs the console reads and calls. */
    Services services();

    /** How long the console waits to connect to a service before it shows the service as unreachable. */
    @WithDefault("PT2S")
    Duration connectTimeout();

    /** How long the console waits for a service's answer before it shows the service as unreachable. */
    @WithDefault("PT10S")
    Duration readTimeout();

    /** How often open pages fetch fresh rows (fleet, queue, table) without a reload. */
    @WithDefault("PT5S")
    Duration refreshInterval();

    /** Rows of the fleet page: the console reads this many graded tables from the scorer. */
    @WithDefault("1000")
    int fleetLimit();

    /** Gradings of a table that its grade history chart shows. */
    @WithDefault("60")
    int historyLimit();

    /** Jobs the executor is asked for when the table page and the queue page look for recent results. */
    @WithDefault("200")
    int recentJobs();

    /** Audit rows of a table that its timeline shows. */
    @WithDefault("80")
    int timelineEvents();

    /** The operator's session. */
    Session session();

    /**
     * The token the console sends with its own reads of the services, a viewer's
     * ({@code CRYO_CONSOLE_READ_TOKEN}): needed where the services close their reads
     * ({@code cryo.security.open-reads=false}); actions always send the signed-in operator's token.
     */
    Optional<String> readToken();

    /** How the SQL that each engine would run is rendered. */
    Sql sql();

    interface Services {
        /** scanner-svc: tables, last scans, "fix now". */
        @WithDefault("http://127.0.0.1:8181")
        URI scanner();

        /** scorer-svc: grades, deductions, history. */
        @WithDefault("http://127.0.0.1:8182")
        URI scorer();

        /** planner-svc: current plans with their chunks. */
        @WithDefault("http://127.0.0.1:8183")
        URI planner();

        /** governor-svc: queue, engines, pauses and policies. */
        @WithDefault("http://127.0.0.1:8184")
        URI governor();

        /** executor-svc: jobs. */
        @WithDefault("http://127.0.0.1:8185")
        URI executor();

        /** audit-svc: every event of a table, with the results of each operation. */
        @WithDefault("http://127.0.0.1:8186")
        URI audit();
    }

    interface Session {
        /** How long an operator stays signed in after entering a token. */
        @WithDefault("PT8H")
        Duration lifetime();

        /**
         * Base64 of a 32-byte key that seals the session cookie, from the environment
         * ({@code CRYO_CONSOLE_SESSION_KEY}); without it a random key is made at start, so a restart
         * signs every operator out and two consoles do not share sessions.
         */
        Optional<String> key();
    }

    interface Sql {
        /** Trino's names of Cryo's catalogs, when they differ ({@code cryo.console.sql.trino-catalogs.lakehouse=iceberg}). */
        Map<String, String> trinoCatalogs();

        /** Spark's names of Cryo's catalogs, when they differ. */
        Map<String, String> sparkCatalogs();
    }
}
