package dev.cryo.enginesql;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.enginesql.expression.CannotRenderException;
import dev.cryo.enginesql.spark.SparkRenderer;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoRenderer;
import dev.cryo.enginesql.trino.TrinoSettings;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static dev.cryo.enginesql.Fixtures.chunk;
import static dev.cryo.enginesql.Fixtures.field;
import static dev.cryo.enginesql.Fixtures.identity;
import static dev.cryo.enginesql.Fixtures.operation;
import static dev.cryo.enginesql.Fixtures.partition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The rules beside the golden cases: forms, mappings, typed literals and refusals. */
class RendererRulesTest {

    @Test
    void trinoCanBeToldToAddressEveryChunkByPartitionPath() {
        var renderer = new TrinoRenderer(new TrinoSettings(CatalogNames.SAME, TrinoSettings.PredicateForm.PARTITION_PATHS));
        var chunk = chunk(partition(0, field("ts_day", "ts", "timestamptz", "day", "19753", "2024-01-31T00:00:00Z", "2024-02-01T00:00:00Z")));
        assertThat(statements(renderer.render(GoldenCases.TABLE, operation(Operation.OPTIMIZE, chunk), chunk)))
                .last().asString().endsWith("WHERE \"$partition\" IN ('ts_day=2024-01-31')");
    }

    @Test
    void partitionPathsUseIcebergsHumanValuesAndUrlEncoding() {
        var chunk = chunk(partition(1,
                identity("na me", "string", "a/b=c d'é"),
                identity("at", "timestamptz", "1706695200000000"),
                field("m", "ts", "timestamp", "month", "648", "2024-01-01T00:00:00", "2024-02-01T00:00:00"),
                field("b", "id", "long", "bucket[8]", "5", null, null),
                identity("amount", "decimal(10, 2)", "-1.50"),
                identity("flag", "boolean", null)));
        assertThat(statements(Fixtures.trino().render(GoldenCases.TABLE, operation(Operation.OPTIMIZE, chunk), chunk)))
                .last().asString().endsWith("WHERE \"$partition\" IN ('na+me=a%2Fb%3Dc+d%27%C3%A9/at=2024-01-31T10%3A00Z"
                        + "/m=2024-01/b=5/amount=-1.50/flag=null')");
    }

    @Test
    void aNanIdentityValueFallsBackToThePartitionPathOnTrinoAndIsRoutedAwayFromSpark() {
        var chunk = chunk(partition(0, identity("ratio", "double", "NaN")));
        assertThat(statements(Fixtures.trino().render(GoldenCases.TABLE, operation(Operation.OPTIMIZE, chunk), chunk)))
                .last().asString().endsWith("WHERE \"$partition\" IN ('ratio=NaN')");
        assertThat(Fixtures.spark().render(GoldenCases.TABLE, operation(Operation.OPTIMIZE, chunk), chunk))
                .isInstanceOfSatisfying(Rendering.NotExpressible.class,
                        not -> assertThat(not.limitation()).isEqualTo(Limitation.SOURCE_TYPE_NOT_SUPPORTED));
    }

    @Test
    void typedLiteralsForEverySourceType() {
        var chunk = chunk(partition(0,
                identity("d", "date", "19753"),
                identity("t", "timestamp", "1706695200123456"),
                identity("n", "long", "-9223372036854775808"),
                identity("x", "binary", "0A0b"),
                identity("u", "uuid", "123e4567-e89b-12d3-a456-426614174000"),
                identity("f", "float", "1.5")));
        assertThat(statements(Fixtures.trino().render(GoldenCases.TABLE, operation(Operation.OPTIMIZE, chunk), chunk)))
                .last().asString().endsWith("WHERE \"d\" = DATE '2024-01-31' AND \"t\" = TIMESTAMP '2024-01-31 10:00:00.123456'"
                        + " AND \"n\" = BIGINT '-9223372036854775808' AND \"x\" = X'0a0b'"
                        + " AND \"u\" = UUID '123e4567-e89b-12d3-a456-426614174000' AND \"f\" = REAL '1.5'");
        assertThat(statements(Fixtures.spark().render(GoldenCases.TABLE, operation(Operation.OPTIMIZE, chunk), chunk)).get(0))
                .contains("where => '`d` = DATE \\'2024-01-31\\' AND `t` = TIMESTAMP_NTZ \\'2024-01-31 10:00:00.123456\\'"
                        + " AND `n` = -9223372036854775808L AND `x` = X\\'0a0b\\'"
                        + " AND `u` = \\'123e4567-e89b-12d3-a456-426614174000\\' AND `f` = 1.5F'");
    }

    @Test
    void catalogsAreMappedToTheEnginesNames() {
        var names = new CatalogNames(Map.of("lakehouse", "iceberg"));
        var trino = new TrinoRenderer(new TrinoSettings(names, TrinoSettings.PredicateForm.COLUMNS_WHERE_EXACT));
        var spark = new SparkRenderer(new SparkSettings(names, Clock.fixed(Fixtures.NOW, ZoneOffset.UTC)));
        assertThat(statements(trino.render(GoldenCases.TABLE, operation(Operation.COMPUTE_STATISTICS), null)))
                .containsExactly("ANALYZE \"iceberg\".\"sales\".\"events\"");
        assertThat(statements(spark.render(GoldenCases.TABLE, operation(Operation.COMPUTE_STATISTICS), null)))
                .containsExactly("CALL `iceberg`.system.compute_table_stats(\n  table => '`sales`.`events`')");
    }

    @Test
    void aNamespaceOfSeveralLevelsIsNotExpressibleOnTrinoButIsOnSpark() {
        TableId nested = new TableId("lakehouse", List.of("a", "b"), "t");
        assertThat(Fixtures.trino().render(nested, operation(Operation.COMPUTE_STATISTICS), null))
                .isEqualTo(new Rendering.NotExpressible(Engine.TRINO, Operation.COMPUTE_STATISTICS, Limitation.TABLE_NAME_NOT_SUPPORTED,
                        "Cannot name lakehouse.a.b.t on Trino: Trino addresses tables as catalog.schema.table, and this "
                                + "namespace has 2 levels"));
        assertThat(statements(Fixtures.spark().render(nested, operation(Operation.COMPUTE_STATISTICS), null)))
                .containsExactly("CALL `lakehouse`.system.compute_table_stats(\n  table => '`a`.`b`.`t`')");
    }

    @Test
    void aNameWithUpperCaseLettersIsNotExpressibleOnTrinoWhichFoldsItButIsOnSpark() {
        TableId mixed = new TableId("lakehouse", List.of("Sales"), "Events");
        assertThat(Fixtures.trino().render(mixed, operation(Operation.COMPUTE_STATISTICS), null))
                .isEqualTo(new Rendering.NotExpressible(Engine.TRINO, Operation.COMPUTE_STATISTICS, Limitation.TABLE_NAME_NOT_SUPPORTED,
                        "Cannot name lakehouse.Sales.Events on Trino: Trino folds schema and table names to lower case,"
                                + " so 'Sales' would be looked up as 'sales' and not found"));
        assertThat(Fixtures.trino().render(new TableId("lakehouse", List.of("sales"), "Events"),
                operation(Operation.COMPUTE_STATISTICS), null)).isInstanceOf(Rendering.NotExpressible.class);
        assertThat(statements(Fixtures.spark().render(mixed, operation(Operation.COMPUTE_STATISTICS), null)))
                .containsExactly("CALL `lakehouse`.system.compute_table_stats(\n  table => '`Sales`.`Events`')");
    }

    @Test
    void anUnpartitionedTableIsRewrittenWhole() {
        var chunk = chunk(partition(0));
        assertThat(statements(Fixtures.trino().render(GoldenCases.TABLE, operation(Operation.OPTIMIZE, chunk), chunk)))
                .last().asString().doesNotContain("WHERE");
        assertThat(statements(Fixtures.spark().render(GoldenCases.TABLE, operation(Operation.OPTIMIZE, chunk), chunk)).get(0))
                .doesNotContain("where =>");
    }

    @Test
    void scopesAndSafetyParametersAreChecked() {
        var chunk = chunk(partition(0, identity("category", "string", "c1")));
        assertThatThrownBy(() -> Fixtures.trino().render(GoldenCases.TABLE, operation(Operation.OPTIMIZE, chunk), null))
                .isInstanceOf(CannotRenderException.class)
                .hasMessage("Cannot render optimize for lakehouse.sales.events: it works on chunks of partitions, and no chunk was given");
        assertThatThrownBy(() -> Fixtures.spark().render(GoldenCases.TABLE, operation(Operation.OPTIMIZE_MANIFESTS), chunk))
                .isInstanceOf(CannotRenderException.class)
                .hasMessage("Cannot render optimize_manifests for lakehouse.sales.events: it works on the whole table and takes no chunk");
        var noRetention = operation(Operation.EXPIRE_SNAPSHOTS, dev.cryo.contracts.event.OperationParameters.NONE);
        assertThatThrownBy(() -> Fixtures.spark().render(GoldenCases.TABLE, noRetention, null))
                .isInstanceOf(CannotRenderException.class)
                .hasMessage("Cannot render expire_snapshots for lakehouse.sales.events: the plan has no snapshot retention; "
                        + "set the table policy's snapshot retention");
    }

    @Test
    void deletingProceduresSetTrinosFloorForTheSessionOnlyAndSparkCanRemoveOrphansAsADryRun() {
        assertThat(statements(Fixtures.trino().render(GoldenCases.TABLE, operation(Operation.REMOVE_ORPHAN_FILES), null)))
                .containsExactly("SET SESSION \"lakehouse\".remove_orphan_files_min_retention = '259200s'",
                        "ALTER TABLE \"lakehouse\".\"sales\".\"events\" EXECUTE remove_orphan_files(retention_threshold => '259200s')");
        var dryRun = new SparkRenderer(new SparkSettings(CatalogNames.SAME, Clock.fixed(Fixtures.NOW, ZoneOffset.UTC),
                SparkSettings.OrphanRemoval.DRY_RUN));
        assertThat(statements(dryRun.render(GoldenCases.TABLE, operation(Operation.REMOVE_ORPHAN_FILES), null)))
                .containsExactly("CALL `lakehouse`.system.remove_orphan_files(\n  table => '`sales`.`events`',\n"
                        + "  older_than => TIMESTAMP '2026-01-12 12:00:00.000000Z',\n  dry_run => true)");
    }

    private static List<String> statements(Rendering rendering) {
        assertThat(rendering).isInstanceOf(Rendering.Statements.class);
        return ((Rendering.Statements) rendering).statements();
    }
}
