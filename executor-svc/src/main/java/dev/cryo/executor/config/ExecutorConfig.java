package dev.cryo.executor.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

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

    /** Rewrites of data files (optimize, convert_deletes, rewrite_position_deletes). */
    Rewrite rewrite();

    /** expire_snapshots defaults, when neither the plan nor the table's properties set them. */
    Snapshots snapshots();

    /** remove_orphan_files. */
    Orphans orphans();

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
        /** Files younger than this are never orphans (a writer may not have committed them yet); at least 1 hour. */
        @WithDefault("P3D")
        Duration defaultAgeFloor();

        /** Only report orphans, delete nothing. */
        @WithDefault("false")
        boolean dryRun();
    }
}
