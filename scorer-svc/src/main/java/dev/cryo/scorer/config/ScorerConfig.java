package dev.cryo.scorer.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Configuration of the scorer. Limits are written in the unit of their check (see the README): a
 * share within 0..1, a count for a 100 GiB table (it grows with table size), a ratio, seconds or an
 * ISO-8601 duration for ages, bytes or {@code 1GiB} for sizes.
 */
@ConfigMapping(prefix = "cryo.scorer")
public interface ScorerConfig {

    /** Global overrides of SCORING.md, by check id: {@code cryo.scorer.checks."small-files".warning=0.3}. */
    Map<String, CheckSettings> checks();

    /** Overrides for tables matching a glob pattern: {@code cryo.scorer.policies."analytics.*".checks."small-files".critical=0.6}. */
    Map<String, PatternSettings> policies();

    /**
     * The snapshot expiry the planner uses when a table sets no {@code history.expire.*} property:
     * snapshot-count and snapshot-age are held, not deducted, when no expiry under it could win
     * their points back. Keep it equal to the planner's {@code cryo.planner.snapshot-retention} and
     * {@code cryo.planner.retain-last}.
     */
    Expiry expiry();

    /** The REST API. */
    Api api();

    /** The Prometheus gauges. */
    Metrics metrics();

    /** The settings of one check; each unset one falls back to the next layer. */
    interface CheckSettings {
        /** Whether the check runs: {@code true} or {@code false}. */
        Optional<String> enabled();

        /** The limit from which the check costs 8 points. */
        Optional<String> warning();

        /** The limit from which the check costs 20 points. */
        Optional<String> critical();

        /** orphan-files only: the absolute warning size, next to the share of table bytes (whichever is less applies). */
        Optional<String> warningBytes();

        /** orphan-files only: the absolute critical size, next to the share of table bytes (whichever is less applies). */
        Optional<String> criticalBytes();
    }

    /** The overrides of one table glob pattern. */
    interface PatternSettings {
        /** Overrides by check id. */
        Map<String, CheckSettings> checks();
    }

    interface Expiry {
        /** Snapshots younger than this are kept (the planner's cryo.planner.snapshot-retention). */
        @WithDefault("P7D")
        Duration retention();

        /** Snapshots always kept (the planner's cryo.planner.retain-last). */
        @WithDefault("10")
        int retainLast();
    }

    interface Api {
        /** Rows of a history request without {@code ?limit=}. */
        @WithDefault("50")
        int historyLimit();

        /** Rows of a table listing without {@code ?limit=}. */
        @WithDefault("100")
        int pageLimit();

        /** The largest {@code ?limit=} accepted. */
        @WithDefault("1000")
        int maxLimit();
    }

    interface Metrics {
        /** Export {@code cryo_table_score{table}}: one series per graded table; switch off for very many tables. */
        @WithDefault("true")
        boolean tableScores();

        /** How often the gauges are reloaded from the database, so that every instance reports every table. */
        @WithDefault("PT1M")
        Duration refreshInterval();
    }
}
