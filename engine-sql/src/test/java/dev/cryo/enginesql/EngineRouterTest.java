package dev.cryo.enginesql;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.Transform;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoSettings;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;

import static dev.cryo.enginesql.Fixtures.chunk;
import static dev.cryo.enginesql.Fixtures.field;
import static dev.cryo.enginesql.Fixtures.identity;
import static dev.cryo.enginesql.Fixtures.operation;
import static dev.cryo.enginesql.Fixtures.partition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EngineRouterTest {

    private final CapabilityMatrix matrix = CapabilityMatrix.of(TrinoSettings.DEFAULT,
            new SparkSettings(CatalogNames.SAME, Clock.fixed(Fixtures.NOW, ZoneOffset.UTC)));
    private final EngineRouter router = new EngineRouter(matrix);

    @Test
    void rewritePositionDeletesChosenForTrinoIsRoutedToNativeAndSaysWhy() {
        var chunk = chunk(partition(0, identity("category", "string", "c1")));
        Route route = router.route(EngineRouter.defaultPolicy(Engine.TRINO), GoldenCases.TABLE, 2,
                operation(Operation.REWRITE_POSITION_DELETES, chunk), chunk);

        assertThat(route.engine()).isEqualTo(Engine.NATIVE);
        assertThat(route.passedOver()).singleElement().satisfies(skip -> {
            assertThat(skip.engine()).isEqualTo(Engine.TRINO);
            assertThat(skip.limitation()).isEqualTo(Limitation.OPERATION_NOT_AVAILABLE);
        });
        assertThat(route.explanation()).isEqualTo("ran on native: trino cannot (OPERATION_NOT_AVAILABLE): "
                + "Trino has no procedure that rewrites position delete files");
    }

    @Test
    void aPolicyOfTrinoThenSparkRoutesPositionDeletesToSparkWithItsStatement() {
        var chunk = chunk(partition(0, identity("category", "string", "c1")));
        Route route = router.route(List.of(Engine.TRINO, Engine.SPARK, Engine.NATIVE), GoldenCases.TABLE, 2,
                operation(Operation.REWRITE_POSITION_DELETES, chunk), chunk);

        assertThat(route.engine()).isEqualTo(Engine.SPARK);
        assertThat(route.support().statements()).singleElement().asString()
                .startsWith("CALL `lakehouse`.system.rewrite_position_delete_files(");
    }

    @Test
    void expireWithRetainLastChosenForTrinoGoesToTheNextEngine() {
        var planned = operation(Operation.EXPIRE_SNAPSHOTS, new OperationParameters(null, Duration.ofDays(7), 10, null));
        Route route = router.route(EngineRouter.defaultPolicy(Engine.TRINO), GoldenCases.TABLE, 2, planned, null);

        assertThat(route.engine()).isEqualTo(Engine.NATIVE);
        assertThat(route.passedOver()).singleElement()
                .satisfies(skip -> assertThat(skip.limitation()).isEqualTo(Limitation.PARAMETER_NOT_AVAILABLE));
    }

    @Test
    void anOperationTheChosenEngineCanDoStaysThere() {
        var chunk = chunk(partition(0, field("id_bucket", "id", "long", "bucket[16]", "3", null, null)));
        Route route = router.route(EngineRouter.defaultPolicy(Engine.TRINO), GoldenCases.TABLE, 2,
                operation(Operation.OPTIMIZE, chunk), chunk);

        assertThat(route.engine()).isEqualTo(Engine.TRINO);
        assertThat(route.passedOver()).isEmpty();
        assertThat(route.explanation()).isEqualTo("ran on trino, the first engine of the policy");
    }

    @Test
    void aSourceTypeSparkCannotCompareIsRoutedByChunk() {
        var chunk = chunk(partition(0, identity("at", "time", "36000000000")));
        Route route = router.route(EngineRouter.defaultPolicy(Engine.SPARK), GoldenCases.TABLE, 2,
                operation(Operation.OPTIMIZE, chunk), chunk);

        assertThat(route.engine()).isEqualTo(Engine.NATIVE);
        assertThat(route.passedOver()).singleElement()
                .satisfies(skip -> assertThat(skip.limitation()).isEqualTo(Limitation.SOURCE_TYPE_NOT_SUPPORTED));
    }

    @Test
    void aRewriteOfAFormatV3TableChosenForTrinoGoesToTheNextEngineBeforeTrinoIsAsked() {
        var chunk = chunk(partition(0, identity("category", "string", "c1")));
        for (Operation operation : List.of(Operation.OPTIMIZE, Operation.CONVERT_DELETES)) {
            Route route = router.route(List.of(Engine.TRINO, Engine.SPARK, Engine.NATIVE), GoldenCases.TABLE, 3,
                    operation(operation, chunk), chunk);

            assertThat(route.engine()).isEqualTo(Engine.SPARK);
            assertThat(route.explanation()).isEqualTo("ran on spark: trino cannot (FORMAT_VERSION_NOT_SUPPORTED): Trino 476"
                    + " refuses optimize on tables of format version 3 (\"OPTIMIZE is not supported for Iceberg table format"
                    + " version > 2\")");
        }
        Route v2 = router.route(EngineRouter.defaultPolicy(Engine.TRINO), GoldenCases.TABLE, 2,
                operation(Operation.OPTIMIZE, chunk), chunk);
        assertThat(v2.engine()).isEqualTo(Engine.TRINO);
    }

    @Test
    void trinoRunsOnlyOptimizeManifestsOnAFormatV3Table() {
        var expire = operation(Operation.EXPIRE_SNAPSHOTS, new OperationParameters(null, Duration.ofDays(7), 1, null));
        var orphans = operation(Operation.REMOVE_ORPHAN_FILES, new OperationParameters(null, null, null, Duration.ofDays(7)));
        for (var planned : List.of(expire, orphans, operation(Operation.COMPUTE_STATISTICS))) {
            Route route = router.route(EngineRouter.defaultPolicy(Engine.TRINO), GoldenCases.TABLE, 3, planned, null);

            assertThat(route.engine()).as(planned.operation().id()).isEqualTo(Engine.NATIVE);
            assertThat(route.passedOver()).singleElement()
                    .satisfies(skip -> assertThat(skip.limitation()).isEqualTo(Limitation.FORMAT_VERSION_NOT_SUPPORTED));
        }
        assertThat(router.route(EngineRouter.defaultPolicy(Engine.TRINO), GoldenCases.TABLE, 3,
                operation(Operation.COMPUTE_STATISTICS), null).explanation()).endsWith("Trino 476 cannot read the deletion"
                + " vectors of format v3 tables (ANALYZE fails with \"Unexpected PUFFIN file format\")");
        assertThat(router.route(EngineRouter.defaultPolicy(Engine.TRINO), GoldenCases.TABLE, 3,
                operation(Operation.OPTIMIZE_MANIFESTS), null).engine()).isEqualTo(Engine.TRINO);
    }

    @Test
    void sparksManifestRewriteOfAFormatV3TableGoesToTheNextEngineAndItsRewritesStay() {
        Route manifests = router.route(EngineRouter.defaultPolicy(Engine.SPARK), GoldenCases.TABLE, 3,
                operation(Operation.OPTIMIZE_MANIFESTS), null);

        assertThat(manifests.engine()).isEqualTo(Engine.NATIVE);
        assertThat(manifests.explanation()).isEqualTo("ran on native: spark cannot (LOSES_ROW_LINEAGE): Spark's"
                + " rewrite_manifests (Iceberg 1.10.1) gives the rows of a format v3 table new _row_id values: it drops the"
                + " data files' first_row_id (apache/iceberg#16699)");
        assertThat(router.route(EngineRouter.defaultPolicy(Engine.SPARK), GoldenCases.TABLE, 2,
                operation(Operation.OPTIMIZE_MANIFESTS), null).engine()).isEqualTo(Engine.SPARK);
        var chunk = chunk(partition(0, identity("category", "string", "c1")));
        for (Operation operation : List.of(Operation.OPTIMIZE, Operation.CONVERT_DELETES, Operation.REWRITE_POSITION_DELETES)) {
            assertThat(router.route(EngineRouter.defaultPolicy(Engine.SPARK), GoldenCases.TABLE, 3,
                    operation(operation, chunk), chunk).engine()).as(operation.id()).isEqualTo(Engine.SPARK);
        }
    }

    @Test
    void aPolicyOfOnlyTrinoCannotRouteAFormatV3OptimizeAndSaysWhy() {
        var chunk = chunk(partition(0, identity("category", "string", "c1")));
        assertThatThrownBy(() -> router.route(List.of(Engine.TRINO), GoldenCases.TABLE, 3,
                operation(Operation.OPTIMIZE, chunk), chunk))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot route optimize of lakehouse.sales.events: no engine of the policy [trino] can run it"
                        + " (trino: Trino 476 refuses optimize on tables of format version 3 (\"OPTIMIZE is not supported"
                        + " for Iceberg table format version > 2\")); add native to the table's engine policy");
    }

    @Test
    void aPolicyWithoutAnEngineThatCanFailsWithEveryReason() {
        var chunk = chunk(partition(0, identity("category", "string", "c1")));
        assertThatThrownBy(() -> router.route(List.of(Engine.TRINO), GoldenCases.TABLE, 2,
                operation(Operation.REWRITE_POSITION_DELETES, chunk), chunk))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot route rewrite_position_deletes of lakehouse.sales.events: no engine of the policy [trino] "
                        + "can run it (trino: Trino has no procedure that rewrites position delete files); add native to the "
                        + "table's engine policy");
    }

    @Test
    void theDefaultPolicyIsTheChosenEngineThenNative() {
        assertThat(EngineRouter.defaultPolicy(Engine.SPARK)).containsExactly(Engine.SPARK, Engine.NATIVE);
        assertThat(EngineRouter.defaultPolicy(Engine.NATIVE)).containsExactly(Engine.NATIVE);
    }

    @Test
    void theMatrixDeclaresEveryOperationForEveryEngine() {
        assertThat(matrix.capabilities()).hasSize(Engine.values().length * Operation.values().length);
        assertThat(matrix.capability(Engine.TRINO, Operation.REWRITE_POSITION_DELETES).isAvailable()).isFalse();
        assertThat(matrix.capability(Engine.TRINO, Operation.CONVERT_DELETES).level())
                .isEqualTo(OperationCapability.Level.THROUGH_ANOTHER_PROCEDURE);
        assertThat(matrix.capabilities()).filteredOn(c -> !c.isAvailable()).extracting(OperationCapability::operation)
                .containsExactly(Operation.REWRITE_POSITION_DELETES);
        assertThat(matrix.formatVersionLimit(Engine.NATIVE, Operation.OPTIMIZE, 3)).isEmpty();
        assertThat(matrix.formatVersionLimit(Engine.TRINO, Operation.OPTIMIZE_MANIFESTS, 3)).isEmpty();
        assertThat(matrix.formatVersionLimit(Engine.TRINO, Operation.OPTIMIZE, 2)).isEmpty();
        assertThat(matrix.formatVersionLimit(Engine.TRINO, Operation.OPTIMIZE, 3)).isPresent();
        assertThat(matrix.transforms(Engine.TRINO)).contains(Transform.Kind.BUCKET, Transform.Kind.TRUNCATE)
                .doesNotContain(Transform.Kind.VOID, Transform.Kind.OTHER);
    }
}
