package dev.cryo.enginesql;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.enginesql.expression.Transform;
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
        Route route = router.route(EngineRouter.defaultPolicy(Engine.TRINO), GoldenCases.TABLE,
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
        Route route = router.route(List.of(Engine.TRINO, Engine.SPARK, Engine.NATIVE), GoldenCases.TABLE,
                operation(Operation.REWRITE_POSITION_DELETES, chunk), chunk);

        assertThat(route.engine()).isEqualTo(Engine.SPARK);
        assertThat(route.support().statements()).singleElement().asString()
                .startsWith("CALL `lakehouse`.system.rewrite_position_delete_files(");
    }

    @Test
    void expireWithRetainLastChosenForTrinoGoesToTheNextEngine() {
        var planned = operation(Operation.EXPIRE_SNAPSHOTS, new OperationParameters(null, Duration.ofDays(7), 10, null));
        Route route = router.route(EngineRouter.defaultPolicy(Engine.TRINO), GoldenCases.TABLE, planned, null);

        assertThat(route.engine()).isEqualTo(Engine.NATIVE);
        assertThat(route.passedOver()).singleElement()
                .satisfies(skip -> assertThat(skip.limitation()).isEqualTo(Limitation.PARAMETER_NOT_AVAILABLE));
    }

    @Test
    void anOperationTheChosenEngineCanDoStaysThere() {
        var chunk = chunk(partition(0, field("id_bucket", "id", "long", "bucket[16]", "3", null, null)));
        Route route = router.route(EngineRouter.defaultPolicy(Engine.TRINO), GoldenCases.TABLE,
                operation(Operation.OPTIMIZE, chunk), chunk);

        assertThat(route.engine()).isEqualTo(Engine.TRINO);
        assertThat(route.passedOver()).isEmpty();
        assertThat(route.explanation()).isEqualTo("ran on trino, the first engine of the policy");
    }

    @Test
    void aSourceTypeSparkCannotCompareIsRoutedByChunk() {
        var chunk = chunk(partition(0, identity("at", "time", "36000000000")));
        Route route = router.route(EngineRouter.defaultPolicy(Engine.SPARK), GoldenCases.TABLE,
                operation(Operation.OPTIMIZE, chunk), chunk);

        assertThat(route.engine()).isEqualTo(Engine.NATIVE);
        assertThat(route.passedOver()).singleElement()
                .satisfies(skip -> assertThat(skip.limitation()).isEqualTo(Limitation.SOURCE_TYPE_NOT_SUPPORTED));
    }

    @Test
    void aPolicyWithoutAnEngineThatCanFailsWithEveryReason() {
        var chunk = chunk(partition(0, identity("category", "string", "c1")));
        assertThatThrownBy(() -> router.route(List.of(Engine.TRINO), GoldenCases.TABLE,
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
        assertThat(matrix.transforms(Engine.TRINO)).contains(Transform.Kind.BUCKET, Transform.Kind.TRUNCATE)
                .doesNotContain(Transform.Kind.VOID, Transform.Kind.OTHER);
    }
}
