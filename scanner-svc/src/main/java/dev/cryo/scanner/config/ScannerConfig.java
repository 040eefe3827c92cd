package dev.cryo.scanner.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** Settings of the scanner ({@code cryo.scanner.*}); catalogs are configured under {@code cryo.catalogs.<name>.*}. */
@ConfigMapping(prefix = "cryo.scanner")
public interface ScannerConfig {

    /** How often the catalog watcher polls every catalog for changed metadata pointers. */
    @WithDefault("PT5S")
    Duration watcherInterval();

    /** How often a sweep asks for a scan of every table of every catalog. */
    @WithDefault("PT6H")
    Duration sweepInterval();

    /** How often every known table's location is listed for orphan files. */
    @WithDefault("PT24H")
    Duration orphanListingInterval();

    /** Files younger than this are never counted as orphans: they may belong to a commit in flight. */
    @WithDefault("P3D")
    Duration orphanAgeFloor();

    /** How long a changed table waits for more changes before its scan starts (bounds the added latency). */
    @WithDefault("PT0.5S")
    Duration coalescingDelay();

    /** Tables scanned in parallel (one scan per table at a time, whatever this says). */
    @WithDefault("2")
    int scanWorkers();

    /** Threads that read manifests missing from the cache, shared by all scans. */
    @WithDefault("2")
    int manifestReadThreads();

    /** Manifests smaller than this count as small (Iceberg's own target is 8 MiB). */
    @WithDefault("2097152")
    long smallManifestBytes();

    /** Manifest aggregates kept in memory in front of the PostgreSQL cache. */
    @WithDefault("200000")
    int manifestCacheEntries();

    /** Largest accepted notification body; larger ones are rejected with 400. */
    @WithDefault("16384")
    int maxNotificationBytes();

    /** How long a scan that failed because Kafka or the database was down waits before it is tried again. */
    @WithDefault("PT5S")
    Duration retryDelay();
}
