package dev.cryo.console.domain;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.enginesql.CatalogNames;
import dev.cryo.enginesql.SqlRenderer;
import dev.cryo.enginesql.spark.SparkRenderer;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoRenderer;
import dev.cryo.enginesql.trino.TrinoSettings;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PlanSqlTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final List<SqlRenderer> RENDERERS = List.of(
            new TrinoRenderer(new TrinoSettings(new CatalogNames(Map.of("lakehouse", "iceberg")),
                    TrinoSettings.PredicateForm.COLUMNS_WHERE_EXACT)),
            new SparkRenderer(new SparkSettings(CatalogNames.SAME, Clock.fixed(NOW, ZoneOffset.UTC))));

    @Test
    void eachChunkShowsItsPartitionsAndTheStatementsOfEachEngine() {
        PlanSql sql = PlanSql.of(plan(List.of(optimize(1), expire())), RENDERERS);

        PlanSql.OperationSql optimize = sql.operations().get(0);
        assertThat(optimize.operation()).isEqualTo(Operation.OPTIMIZE);
        assertThat(optimize.reasonsText()).isEqualTo("small-files, file-count");
        assertThat(optimize.parameters()).isEqualTo("target file size 512 MiB");
        assertThat(optimize.partitioned()).isTrue();
        PlanSql.ChunkSql chunk = optimize.chunks().get(0);
        assertThat(chunk.partitions()).containsExactly("event_ts_day = 2026-11-29");
        PlanSql.Statements trino = chunk.statements().get(0);
        assertThat(trino.engine()).isEqualTo(Engine.TRINO);
        assertThat(trino.available()).isTrue();
        assertThat(trino.text())
                .contains("ALTER TABLE \"iceberg\".\"web\".\"clicks\" EXECUTE optimize(file_size_threshold => '402653184B')")
                .contains("\"event_ts\" >= TIMESTAMP '2026-11-29 00:00:00.000000 UTC'")
                .endsWith(";");
        PlanSql.Statements spark = chunk.statements().get(1);
        assertThat(spark.engine()).isEqualTo(Engine.SPARK);
        assertThat(spark.text()).startsWith("CALL `lakehouse`.system.rewrite_data_files(")
                .contains("table => '`web`.`clicks`'");

        PlanSql.OperationSql expire = sql.operations().get(1);
        assertThat(expire.partitioned()).isFalse();
        assertThat(expire.parameters()).isEqualTo("keep snapshots younger than 7 days, always keep the last 10");
        assertThat(expire.tableStatements().get(0).available()).isFalse();
        assertThat(expire.tableStatements().get(0).unavailable()).contains("retain_last");
        assertThat(expire.tableStatements().get(1).text()).contains("older_than => TIMESTAMP '2026-11-22 12:00:00.000000Z'")
                .contains("retain_last => 10");
    }

    @Test
    void whatAnEngineCannotDoSaysWhyInsteadOfStatements() {
        PlannedOperation rewrite = new PlannedOperation(Operation.REWRITE_POSITION_DELETES, List.of(Check.POSITION_DELETES),
                List.of(chunk(0, "20786")), OperationParameters.NONE, Estimate.ZERO);
        PlanSql.Statements trino = PlanSql.of(plan(List.of(rewrite)), RENDERERS).operations().get(0).chunks().get(0)
                .statements().get(0);

        assertThat(trino.available()).isFalse();
        assertThat(trino.sql()).isEmpty();
        assertThat(trino.unavailable()).contains("Trino has no procedure that rewrites position delete files");
    }

    @Test
    void onlyTheFirstChunksOfALongOperationAreRendered() {
        PlanSql sql = PlanSql.of(plan(List.of(optimize(PlanSql.MAX_CHUNKS_SHOWN + 3))), RENDERERS);

        assertThat(sql.operations().get(0).chunks()).hasSize(PlanSql.MAX_CHUNKS_SHOWN);
        assertThat(sql.operations().get(0).chunkCount()).isEqualTo(PlanSql.MAX_CHUNKS_SHOWN + 3);
        assertThat(sql.hiddenChunks()).isEqualTo(3);
    }

    @Test
    void partitionsReadAsFieldsAndValuesAndTheWholeTableAsSuch() {
        assertThat(PlanSql.partition(new PartitionPredicate(0, List.of()))).isEqualTo("whole table (spec 0)");
        assertThat(PlanSql.partition(new PartitionPredicate(2, List.of(
                new FieldPredicate("id_bucket", "id", "long", "bucket[16]", "3", null, null, null),
                new FieldPredicate("region", "region", "string", "identity", null, null, null, null)))))
                .isEqualTo("id_bucket = bucket 3 of 16, region = null (spec 2)");
    }

    private static MaintenancePlanned plan(List<PlannedOperation> operations) {
        return new MaintenancePlanned("plan-1", TableId.parse("lakehouse.web.clicks"), "scan-1", 9L, NOW.minusSeconds(1), NOW, 44, Grade.D,
                92, operations, new Estimate(12, 12_000, 0, 1), null, "operator:alice");
    }

    private static PlannedOperation optimize(int chunks) {
        List<Chunk> list = new ArrayList<>();
        for (int i = 0; i < chunks; i++) {
            list.add(chunk(i, Integer.toString(20786 + i)));
        }
        return new PlannedOperation(Operation.OPTIMIZE, List.of(Check.SMALL_FILES, Check.FILE_COUNT), list,
                new OperationParameters(512L << 20, null, null, null), new Estimate(12, 12_000, 0, 1));
    }

    private static PlannedOperation expire() {
        return new PlannedOperation(Operation.EXPIRE_SNAPSHOTS, List.of(Check.SNAPSHOT_COUNT), List.of(),
                new OperationParameters(null, Duration.ofDays(7), 10, null), Estimate.ZERO);
    }

    private static Chunk chunk(int index, String day) {
        String date = PartitionLabels.label("day", day);
        String next = PartitionLabels.label("day", Integer.toString(Integer.parseInt(day) + 1));
        return new Chunk(index, List.of(new PartitionPredicate(0, List.of(new FieldPredicate("event_ts_day", "event_ts",
                "timestamptz", "day", day, date + "T00:00:00Z", next + "T00:00:00Z", date)))),
                new Estimate(12, 12_000, 0, 1));
    }
}
