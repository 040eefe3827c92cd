package dev.cryo.audit.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** Settings of the audit service ({@code cryo.audit.*}). */
@ConfigMapping(prefix = "cryo.audit")
public interface AuditConfig {

    Query query();

    Export export();

    Ingest ingest();

    Verify verify();

    Anchor anchor();

    Partitions partitions();

    Replay replay();

    /** Listing the log. */
    interface Query {
        /** Rows per page when the request names no limit. */
        @WithDefault("100")
        int defaultLimit();

        /** The largest page a request may ask for. */
        @WithDefault("1000")
        int maxLimit();

        /**
         * The stored payload and raw-value bytes one page or timeline may carry (always at least one
         * row): rows of malformed records reach 8 MiB, and 200 of them once ran the audit out of memory.
         * A shorter page still carries its {@code next} cursor, a shorter timeline its {@code more}.
         */
        @WithDefault("8388608")
        long maxPageBytes();
    }

    /** Streaming exports. */
    interface Export {
        /** Rows fetched from the database per round trip: bounds the memory an export holds. */
        @WithDefault("500")
        int fetchSize();
    }

    /** Writing events into the log. */
    interface Ingest {
        /** First wait before retrying a batch the database did not take (doubles up to max-backoff). */
        @WithDefault("PT0.5S")
        Duration firstBackoff();

        /** Longest wait between retries; ingestion retries until the database is back, it never skips a record. */
        @WithDefault("PT30S")
        Duration maxBackoff();

        /** How old the broker's end offsets may be when the ingest lag is reported. */
        @WithDefault("PT2S")
        Duration lagRefreshInterval();
    }

    /** Recomputing the chain. */
    interface Verify {
        /** Broken rows listed in a report (all are counted). */
        @WithDefault("100")
        int maxReportedBreaks();

        /** Rows fetched per round trip while verifying. */
        @WithDefault("1000")
        int fetchSize();
    }

    /** Anchoring the chain's head on cryo.audit-anchors.v1, outside the database. */
    interface Anchor {
        /** How often the head is anchored when it moved (PT0S: never; verify then reports the chain unanchored). */
        @WithDefault("PT1M")
        Duration interval();

        /**
         * The record key of this chain's anchors; default the audit schema's name. Tests key them
         * per start, since each start empties the schema and begins a new chain.
         */
        java.util.Optional<String> key();
    }

    /** Monthly partitions. */
    interface Partitions {
        /** Months created ahead of the current one at start, so that no insert waits for one. */
        @WithDefault("1")
        int monthsAhead();
    }

    /** Rebuilds and re-publications. */
    interface Replay {
        /** Records read from Kafka (or the store) and written per batch. */
        @WithDefault("500")
        int batchSize();

        /** How long a rebuild waits for the live store to ingest the records it compares. */
        @WithDefault("PT2M")
        Duration liveCatchUpTimeout();

        /** How often a running replay logs and saves its progress. */
        @WithDefault("PT5S")
        Duration progressInterval();

        /** Differing events listed in a rebuild report (all are counted). */
        @WithDefault("20")
        int maxReportedDifferences();
    }
}
