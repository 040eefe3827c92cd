package dev.cryo.executor.config;

import dev.cryo.contracts.Engine;
import dev.cryo.enginesql.trino.TrinoSettings;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** How the executor runs jobs. */
@ConfigMapping(prefix = "cryo.executor")
public interface ExecutorConfig {

    /** How often a running job renews its attempt row and publishes a JobHeartbeat (the governor extends the lease from it). */
    @WithDefault("PT5S")
    Duration heartbeatInterval();

    /** An attempt whose heartbeat is older than this may be taken over by another executor. */
    @WithDefault("PT60S")
    Duration leaseTimeout();

    /** How long a redelivered job waits for the executor that still runs it before leaving it to that owner. */
    @WithDefault("PT2M")
    Duration heldJobWait();

    /**
     * The oldest admission an executor starts, whatever lease it carries: a replayed or forged
     * record of a job admitted long ago is refused (JobRefused, reason admission-too-old).
     */
    @WithDefault("PT10M")
    Duration admissionValidity();

    /**
     * How far the governor's clock may run ahead of this executor's: an admission stamped further
     * in the future is refused (admitted-in-future). Executors and governors are expected to keep
     * NTP time; a lease that ended by this executor's clock is refused without tolerance.
     */
    @WithDefault("PT30S")
    Duration clockSkewTolerance();

    /** Jobs this executor runs at the same time (the worker pool of the job consumer). */
    @WithDefault("2")
    int concurrentJobs();

    /**
     * Acknowledge and skip jobs for catalogs this executor has no configuration for, instead of
     * failing them. For executor groups that serve only some catalogs, and for tests that share
     * the topics with other services' tests.
     */
    @WithDefault("false")
    boolean ignoreUnknownCatalogs();

    /**
     * Engines that run a step the job's engine cannot (rewrite_position_deletes on Trino, a chunk
     * Trino cannot address, retain_last on Trino, …), tried in this order after the job's engine.
     * Each must be configured here (native always is).
     */
    @WithDefault("native")
    List<Engine> fallbackEngines();

    /** Trino, reached over its JDBC driver; unset jdbc-url: this executor runs no Trino jobs. */
    Trino trino();

    /** Spark, reached over Spark Connect; unset remote: this executor runs no Spark jobs. */
    Spark spark();

    /** Rewrites of data files (optimize, convert_deletes, rewrite_position_deletes). */
    Rewrite rewrite();

    /** expire_snapshots defaults, when neither the plan nor the table's properties set them. */
    Snapshots snapshots();

    /** remove_orphan_files. */
    Orphans orphans();

    interface Trino {
        /** {@code jdbc:trino://host:port} of the coordinator; unset: no Trino engine in this executor. */
        Optional<String> jdbcUrl();

        /** The Trino user Cryo's queries run as (recorded by Trino in system.runtime.queries and in commit summaries). */
        @WithDefault("cryo")
        String user();

        /** The source and client tag of every query, so resource groups and the governor tell Cryo's queries from users'. */
        @WithDefault("cryo")
        String source();

        /** The user's password, from the environment only (CRYO_EXECUTOR_TRINO_PASSWORD); unset: none. */
        Optional<String> password();

        /** The longest one statement may run (Trino's query_max_run_time for it); then the step fails with ENGINE_TIMEOUT. */
        @WithDefault("PT1H")
        Duration queryTimeout();

        /** Trino's catalog name of a Cryo catalog, {@code catalog-names.<cryo catalog>=<trino catalog>}; unset: the same name. */
        Map<String, String> catalogNames();

        /** How optimize addresses partitions: columns-where-exact, or partition-paths for tables whose older coarser spec makes Trino refuse ranges. */
        @WithDefault("columns-where-exact")
        TrinoSettings.PredicateForm predicateForm();
    }

    interface Spark {
        /** {@code sc://host:port} of the Spark Connect server; unset: no Spark engine in this executor. */
        Optional<String> remote();

        /** The Spark Connect user id (and user agent) Cryo's session runs as. */
        @WithDefault("cryo")
        String user();

        /** The longest one statement may run; then its operation is interrupted and the step fails with ENGINE_TIMEOUT. */
        @WithDefault("PT1H")
        Duration queryTimeout();

        /** Spark's catalog name of a Cryo catalog (its spark.sql.catalog.<name>); unset: the same name. */
        Map<String, String> catalogNames();
    }

    interface Rewrite {
        /** Data files smaller than this share of the target file size are rewritten. */
        @WithDefault("0.75")
        double minFileSizeRatio();

        /** Data files larger than this multiple of the target file size are split. */
        @WithDefault("1.8")
        double maxFileSizeRatio();

        /** Commits of one rewrite: the first and its rebases onto concurrent writers' commits. */
        @WithDefault("20")
        int maxCommitAttempts();

        /** Times a chunk is planned and rewritten again when another rewrite replaced its files. */
        @WithDefault("3")
        int maxReplans();

        /** First wait between retries; it doubles up to max-backoff. */
        @WithDefault("PT0.2S")
        Duration firstBackoff();

        /** Longest wait between retries. */
        @WithDefault("PT5S")
        Duration maxBackoff();

        /** Partitions of a chunk rewritten at once, and new files read back at once (0: one per processor). */
        @WithDefault("0")
        int threads();
    }

    interface Snapshots {
        /** Snapshots older than this may expire (Iceberg's own default is 5 days). */
        @WithDefault("P5D")
        Duration defaultRetention();

        /** Snapshots always kept, whatever their age. */
        @WithDefault("1")
        int defaultRetainLast();
    }

    interface Orphans {
        /**
         * Files younger than this are never orphans (a writer may not have committed them yet); at
         * least 24 hours unless cryo.orphans.allow-unsafe-floor is true.
         */
        @WithDefault("P3D")
        Duration defaultAgeFloor();

        /**
         * The largest share (0 to 1) of the files, and of the bytes, listed under a table's location
         * that one run deletes; a run with more candidates stops before deleting until an operator
         * releases the brake for it.
         */
        @WithDefault("0.5")
        double maxShare();

        /** Files deleted at once; the table is looked at again before each batch. */
        @WithDefault("1000")
        int deleteBatchSize();

        /** Only report orphans, delete nothing. */
        @WithDefault("false")
        boolean dryRun();
    }
}
