package dev.cryo.executor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.enginesql.CapabilityMatrix;
import dev.cryo.enginesql.CatalogNames;
import dev.cryo.enginesql.EngineRouter;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoSettings;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.iceberg.OperationDefaults;
import dev.cryo.executor.iceberg.OrphanRemovalSettings;
import dev.cryo.executor.iceberg.TableLoader;
import dev.cryo.executor.iceberg.TestTables;
import dev.cryo.executor.sql.PlannerPredicates;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where each step of a job goes: the job's engine when it can, else the next engine of the policy, with the reason. */
class PolicyRoutingTest {

    private static final EngineRouter ROUTER = new EngineRouter(CapabilityMatrix.of(TrinoSettings.DEFAULT,
            SparkSettings.systemClock(CatalogNames.SAME)));
    private static final OperationDefaults DEFAULTS = new OperationDefaults(Duration.ofDays(5), 1, OrphanRemovalSettings.DEFAULTS);

    private InMemoryCatalog catalog;
    private Table table;
    private TableId id;
    private PartitionPredicate day;

    @BeforeEach
    void table() {
        catalog = new InMemoryCatalog();
        catalog.initialize("lake", Map.of());
        catalog.createNamespace(Namespace.of("maintenance"));
        String name = "events_" + UUID.randomUUID().toString().substring(0, 8);
        table = catalog.createTable(TableIdentifier.of("maintenance", name), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of(TableProperties.FORMAT_VERSION, "2", TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "1048576",
                        TableProperties.MIN_SNAPSHOTS_TO_KEEP, "3"));
        TestTables.fill(table, 2, 10, 1, 81);
        id = TableId.of("lake", "maintenance", name);
        day = PlannerPredicates.of(table, TestTables.dataFiles(table).get(0));
    }

    private PolicyRouting routing(List<Engine> fallbackEngines) {
        return new PolicyRouting(ROUTER, fallbackEngines, new TableLoader(CatalogRegistry.of(Map.of("lake", catalog))), DEFAULTS);
    }

    private StepRequest chunk(Operation operation, PartitionPredicate partition) {
        return new StepRequest(id, "job-1", StepKey.chunk(operation, 0), List.of(partition), OperationParameters.NONE);
    }

    private StepRequest whole(Operation operation, OperationParameters parameters) {
        return new StepRequest(id, "job-1", StepKey.table(operation), List.of(), parameters);
    }

    @Test
    void rewritePositionDeletesChosenForTrinoIsRoutedToNativeAndSaysWhy() {
        PolicyRouting.RoutedStep routed = routing(List.of(Engine.NATIVE)).route(Engine.TRINO,
                chunk(Operation.REWRITE_POSITION_DELETES, day));

        assertThat(routed.engine()).isEqualTo(Engine.NATIVE);
        assertThat(routed.routedReason()).startsWith("ran on native: trino cannot (OPERATION_NOT_AVAILABLE)")
                .contains("Trino has no procedure that rewrites position delete files");
    }

    @Test
    void whatTheChosenEngineCanDoStaysThereWithTheTablesOwnParameters() {
        PolicyRouting.RoutedStep routed = routing(List.of(Engine.NATIVE)).route(Engine.TRINO, chunk(Operation.OPTIMIZE, day));

        assertThat(routed.engine()).isEqualTo(Engine.TRINO);
        assertThat(routed.routedReason()).isNull();
        assertThat(routed.request().parameters().targetFileSizeBytes()).isEqualTo(1048576L);
        assertThat(routing(List.of()).policy(Engine.SPARK)).containsExactly(Engine.SPARK);
        assertThat(routing(List.of(Engine.NATIVE)).policy(Engine.TRINO)).containsExactly(Engine.TRINO, Engine.NATIVE);
    }

    @Test
    void aTableThatKeepsSeveralSnapshotsExpiresOnAnEngineThatCanKeepThem() {
        // history.expire.min-snapshots-to-keep=3: Trino's expire_snapshots has no retain_last, Spark's has.
        PolicyRouting.RoutedStep routed = routing(List.of(Engine.SPARK, Engine.NATIVE)).route(Engine.TRINO,
                whole(Operation.EXPIRE_SNAPSHOTS, OperationParameters.NONE));

        assertThat(routed.engine()).isEqualTo(Engine.SPARK);
        assertThat(routed.routedReason()).startsWith("ran on spark: trino cannot (PARAMETER_NOT_AVAILABLE)");
        assertThat(routed.request().parameters().retainLast()).isEqualTo(3);
        assertThat(routed.request().parameters().snapshotRetention()).isEqualTo(Duration.ofDays(5));
    }

    @Test
    void aStepNoEngineOfThePolicyCanRunFailsWithEveryReason() {
        assertThatThrownBy(() -> routing(List.of()).route(Engine.TRINO, chunk(Operation.REWRITE_POSITION_DELETES, day)))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.NOT_ROUTABLE))
                .hasMessageContaining("Cannot route rewrite_position_deletes of " + id + ": no engine of the policy [trino]")
                .hasMessageContaining("cryo.executor.fallback-engines");
    }

    @Test
    void unsafeOrHostileInputIsRefusedBeforeAnyEngineSeesIt() {
        assertThatThrownBy(() -> routing(List.of(Engine.NATIVE)).route(Engine.TRINO, whole(Operation.REMOVE_ORPHAN_FILES,
                new OperationParameters(null, null, null, Duration.ofMinutes(5)))))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.UNSAFE_PARAMETER))
                .hasMessageContaining("the age floor must be at least PT24H");

        FieldPredicate field = day.fields().get(0);
        PartitionPredicate hostile = new PartitionPredicate(day.specId(), List.of(new FieldPredicate(field.field(),
                field.sourceColumn(), field.sourceType(), field.transform(), field.value(), "2026-11-01'; DROP TABLE t; --",
                field.upperExclusive(), null)));
        assertThatThrownBy(() -> routing(List.of(Engine.NATIVE)).route(Engine.TRINO, chunk(Operation.OPTIMIZE, hostile)))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.CANNOT_RENDER))
                .hasMessageContaining("Cannot render");
    }

    @Test
    void aFormatV3TableIsRewrittenOnlyByAnEngineThatKeepsItsRowLineage() {
        table.updateProperties().set(TableProperties.FORMAT_VERSION, "3").commit();

        PolicyRouting.RoutedStep optimize = routing(List.of(Engine.SPARK, Engine.NATIVE)).route(Engine.TRINO,
                chunk(Operation.OPTIMIZE, day));
        PolicyRouting.RoutedStep manifests = routing(List.of(Engine.NATIVE)).route(Engine.SPARK,
                whole(Operation.OPTIMIZE_MANIFESTS, OperationParameters.NONE));

        assertThat(optimize.engine()).isEqualTo(Engine.SPARK);
        assertThat(optimize.routedReason()).startsWith("ran on spark: trino cannot (FORMAT_VERSION_NOT_SUPPORTED): Trino 476"
                + " refuses optimize on tables of format version 3");
        assertThat(manifests.engine()).isEqualTo(Engine.NATIVE);
        assertThat(manifests.routedReason()).startsWith("ran on native: spark cannot (LOSES_ROW_LINEAGE)");
    }

    @Test
    void aNativeJobNeedsNoTableToBeRouted() {
        StepRequest missing = new StepRequest(TableId.of("lake", "maintenance", "missing"), "job-1",
                StepKey.table(Operation.OPTIMIZE_MANIFESTS), List.of(), OperationParameters.NONE);

        PolicyRouting.RoutedStep routed = routing(List.of(Engine.NATIVE)).route(Engine.NATIVE, missing);

        assertThat(routed.engine()).isEqualTo(Engine.NATIVE);
        assertThat(routed.routedReason()).isNull();
        assertThat(routed.request()).isSameAs(missing);
    }
}
