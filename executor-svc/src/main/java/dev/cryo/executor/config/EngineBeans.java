package dev.cryo.executor.config;

import dev.cryo.executor.domain.Backoff;
import dev.cryo.executor.domain.OrphanAgeFloor;
import dev.cryo.executor.iceberg.NativeEngine;
import dev.cryo.executor.iceberg.NativeEngineSettings;
import dev.cryo.executor.iceberg.RewriteSettings;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.platform.config.CatalogsConfig;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;

import java.io.IOException;
import java.time.Clock;

/** The catalogs and the native engine, built once at start-up so a bad catalog config fails the start. */
@ApplicationScoped
public class EngineBeans {

    @Produces
    @ApplicationScoped
    CatalogRegistry catalogs(CatalogsConfig config) {
        CatalogRegistry registry = CatalogRegistry.create(config.catalogs());
        Log.infof("Iceberg catalogs: %s", registry.names());
        return registry;
    }

    void close(@Disposes CatalogRegistry registry) throws IOException {
        registry.close();
    }

    @Produces
    @ApplicationScoped
    NativeEngine nativeEngine(CatalogRegistry catalogs, ExecutorConfig config, Clock clock) {
        ExecutorConfig.Rewrite rewrite = config.rewrite();
        OrphanAgeFloor.resolve(null, config.orphans().defaultAgeFloor());
        return new NativeEngine(catalogs, new NativeEngineSettings(
                new RewriteSettings(rewrite.minFileSizeRatio(), rewrite.maxFileSizeRatio(), rewrite.maxCommitAttempts(),
                        rewrite.maxReplans(), new Backoff(rewrite.firstBackoff(), rewrite.maxBackoff())),
                config.snapshots().defaultRetention(), config.snapshots().defaultRetainLast(),
                config.orphans().defaultAgeFloor(), config.orphans().dryRun()), clock);
    }

    /**
     * Builds the catalogs and the engine at start-up rather than at the first job: beans are
     * created when first called, and a catalog that cannot be built must stop the start, named.
     */
    void startUp(@Observes StartupEvent event, CatalogRegistry catalogs, NativeEngine engine) {
        catalogs.names();
        Log.infof("Native engine ready: %s", engine.capabilities().operations());
    }
}
