package dev.cryo.executor.config;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.OrphanAgeFloors;
import dev.cryo.enginesql.CapabilityMatrix;
import dev.cryo.enginesql.CatalogNames;
import dev.cryo.enginesql.EngineRouter;
import dev.cryo.enginesql.spark.SparkConnectClient;
import dev.cryo.enginesql.spark.SparkRenderer;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoClient;
import dev.cryo.enginesql.trino.TrinoRenderer;
import dev.cryo.enginesql.trino.TrinoSettings;
import dev.cryo.executor.app.PolicyRouting;
import dev.cryo.executor.engine.Backoff;
import dev.cryo.executor.engine.OrphanShareBrake;
import dev.cryo.executor.engine.EngineStepLog;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.executor.engine.MaintenanceEngine;
import dev.cryo.executor.iceberg.NativeEngine;
import dev.cryo.executor.iceberg.NativeEngineSettings;
import dev.cryo.executor.iceberg.OperationDefaults;
import dev.cryo.executor.iceberg.OrphanRemovalSettings;
import dev.cryo.executor.iceberg.RewriteSettings;
import dev.cryo.executor.iceberg.TableLoader;
import dev.cryo.executor.persistence.BrakeReleases;
import dev.cryo.executor.persistence.JobAttempts;
import dev.cryo.executor.sql.SqlEngine;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.orphan.LocationEquivalence;
import dev.cryo.platform.config.CatalogsConfig;
import dev.cryo.platform.config.OrphansConfig;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The catalogs and the engines, built once at start-up so a bad catalog or engine config fails
 * the start. Trino and Spark are connected lazily: a server that is down fails its steps
 * (ENGINE_UNREACHABLE), not the executor's start.
 */
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

    // Records are final, so these two cannot be normal-scoped (proxied): one instance each, made once.
    @Produces
    @Singleton
    NativeEngineSettings nativeEngineSettings(ExecutorConfig config, OrphansConfig orphans) {
        ExecutorConfig.Rewrite rewrite = config.rewrite();
        ExecutorConfig.Orphans removal = config.orphans();
        LocationEquivalence equivalence = new LocationEquivalence(
                LocationEquivalence.parseGroups(orphans.equivalentSchemes()),
                LocationEquivalence.parseGroups(orphans.equivalentAuthorities()));
        return new NativeEngineSettings(
                new RewriteSettings(rewrite.minFileSizeRatio(), rewrite.maxFileSizeRatio(), rewrite.maxCommitAttempts(),
                        rewrite.maxReplans(), new Backoff(rewrite.firstBackoff(), rewrite.maxBackoff()), rewrite.threads()),
                config.snapshots().defaultRetention(), config.snapshots().defaultRetainLast(),
                new OrphanRemovalSettings(removal.defaultAgeFloor(), orphans.allowUnsafeFloor()
                        ? OrphanAgeFloors.UnsafeFloors.ALLOWED : OrphanAgeFloors.UnsafeFloors.REFUSED, equivalence,
                        new OrphanShareBrake(removal.maxShare()), removal.deleteBatchSize(), removal.dryRun()));
    }

    @Produces
    @Singleton
    JobRecords jobRecords(EngineStepLog log, JobAttempts attempts, BrakeReleases releases, ExecutorConfig config) {
        return new JobRecords(log, (table, jobId) -> attempts.othersStarted(table.toString(), jobId, config.leaseTimeout()),
                releases);
    }

    @Produces
    @ApplicationScoped
    NativeEngine nativeEngine(CatalogRegistry catalogs, NativeEngineSettings settings, JobRecords records, Clock clock) {
        if (settings.orphans().unsafeFloors() == OrphanAgeFloors.UnsafeFloors.ALLOWED) {
            Log.warnf("cryo.orphans.allow-unsafe-floor=true: orphan removal may run with age floors under %s",
                    OrphanAgeFloors.MINIMUM);
        }
        return new NativeEngine(catalogs, settings, records, clock);
    }

    @Produces
    @ApplicationScoped
    ConfiguredEngines engines(NativeEngine nativeEngine, NativeEngineSettings nativeSettings, CatalogRegistry catalogs,
                              ExecutorConfig config, JobRecords records, Clock clock) {
        ExecutorConfig.Trino trino = config.trino();
        ExecutorConfig.Spark spark = config.spark();
        TrinoSettings trinoSettings = new TrinoSettings(new CatalogNames(trino.catalogNames()), trino.predicateForm());
        SparkSettings sparkSettings = new SparkSettings(new CatalogNames(spark.catalogNames()), clock,
                nativeSettings.orphans().dryRun() ? SparkSettings.OrphanRemoval.DRY_RUN : SparkSettings.OrphanRemoval.DELETE);
        CapabilityMatrix matrix = CapabilityMatrix.of(trinoSettings, sparkSettings);
        TableLoader tables = new TableLoader(catalogs);
        OperationDefaults defaults = nativeSettings.defaults();

        Map<Engine, MaintenanceEngine> engines = new EnumMap<>(Engine.class);
        List<AutoCloseable> clients = new ArrayList<>();
        engines.put(Engine.NATIVE, nativeEngine);
        if (trino.jdbcUrl().isPresent()) {
            TrinoClient client = new TrinoClient(new TrinoClient.Settings(trino.jdbcUrl().get(), trino.user(),
                    trino.source(), trino.password().orElse(null), trino.queryTimeout()));
            clients.add(client);
            engines.put(Engine.TRINO, new SqlEngine(new TrinoRenderer(trinoSettings), client, matrix, tables, defaults,
                    records, clock, trino.user()));
        }
        if (spark.remote().isPresent()) {
            SparkConnectClient client = new SparkConnectClient(new SparkConnectClient.Settings(spark.remote().get(),
                    spark.user(), spark.queryTimeout()));
            clients.add(client);
            engines.put(Engine.SPARK, new SqlEngine(new SparkRenderer(sparkSettings), client, matrix, tables, defaults,
                    records, clock, null));
        }
        for (Engine fallback : config.fallbackEngines()) {
            if (!engines.containsKey(fallback)) {
                throw new IllegalStateException("Cannot use " + fallback.id() + " as a fallback engine: this executor"
                        + " does not run it; set " + (fallback == Engine.TRINO ? "cryo.executor.trino.jdbc-url"
                        : "cryo.executor.spark.remote") + " or remove it from cryo.executor.fallback-engines");
            }
        }
        PolicyRouting routing = new PolicyRouting(new EngineRouter(matrix), config.fallbackEngines(), tables, defaults);
        return new ConfiguredEngines(engines, routing, clients);
    }

    void close(@Disposes ConfiguredEngines engines) {
        engines.close();
    }

    /**
     * Builds the catalogs and the engines at start-up rather than at the first job: beans are
     * created when first called, and a catalog that cannot be built must stop the start, named.
     */
    void startUp(@Observes StartupEvent event, CatalogRegistry catalogs, ConfiguredEngines engines, ExecutorConfig config) {
        catalogs.names();
        engines.engines().values().forEach(engine -> Log.infof("Engine %s ready: %s", engine.engine().id(),
                engine.capabilities().operations()));
        Log.infof("Steps an engine cannot run go to %s", config.fallbackEngines().stream().map(Engine::id).toList());
    }
}
