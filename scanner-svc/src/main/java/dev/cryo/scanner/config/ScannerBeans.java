package dev.cryo.scanner.config;

import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.orphan.LocationEquivalence;
import dev.cryo.platform.config.CatalogsConfig;
import dev.cryo.platform.config.OrphansConfig;
import dev.cryo.scanner.iceberg.MemoryManifestCache;
import dev.cryo.scanner.iceberg.MetadataScanner;
import dev.cryo.scanner.iceberg.OrphanLister;
import dev.cryo.scanner.persistence.JdbcManifestCache;
import io.agroal.api.AgroalDataSource;
import io.quarkus.logging.Log;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** The scanner's Iceberg side: the catalogs from {@code cryo.catalogs.*}, the metadata scanner and its cache. */
@ApplicationScoped
public class ScannerBeans {

    private final ExecutorService manifestReaders;

    ScannerBeans(ScannerConfig config) {
        this.manifestReaders = Executors.newFixedThreadPool(Math.max(1, config.manifestReadThreads()),
                daemonThreads("cryo-manifest-reader"));
    }

    /** Built at start-up: a catalog with a bad configuration fails the start with its name. */
    @Produces
    @Singleton
    CatalogRegistry catalogs(CatalogsConfig config) {
        Map<String, Map<String, String>> catalogs = new LinkedHashMap<>(config.catalogs());
        Log.infof("Configuring Iceberg catalogs %s", catalogs.keySet());
        return CatalogRegistry.create(catalogs);
    }

    void closeCatalogs(@Disposes CatalogRegistry registry) {
        try {
            registry.close();
        } catch (IOException e) {
            Log.warnf("Closing the Iceberg catalogs failed: %s", e.getMessage());
        }
    }

    @Produces
    @Singleton
    MetadataScanner scanner(AgroalDataSource dataSource, ScannerConfig config, Clock clock) {
        MemoryManifestCache cache = new MemoryManifestCache(new JdbcManifestCache(dataSource), config.manifestCacheEntries());
        return new MetadataScanner(cache, manifestReaders, config.smallManifestBytes(), clock);
    }

    @Produces
    @Singleton
    OrphanLister orphanLister(Clock clock, OrphansConfig orphans) {
        return new OrphanLister(clock, new LocationEquivalence(LocationEquivalence.parseGroups(orphans.equivalentSchemes()),
                LocationEquivalence.parseGroups(orphans.equivalentAuthorities())));
    }

    @PreDestroy
    void stop() {
        manifestReaders.shutdownNow();
    }

    public static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
