package dev.cryo.enginesql;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.enginesql.spark.SparkRenderer;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoRenderer;
import dev.cryo.enginesql.trino.TrinoSettings;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/** Plans, chunks and renderers for tests, built the way the planner builds them. */
public final class Fixtures {

    public static final Instant NOW = Instant.parse("2026-01-15T12:00:00Z");
    public static final long TARGET_BYTES = 536_870_912L;

    public static SparkRenderer spark() {
        return new SparkRenderer(new SparkSettings(CatalogNames.SAME, Clock.fixed(NOW, ZoneOffset.UTC)));
    }

    public static TrinoRenderer trino() {
        return new TrinoRenderer(TrinoSettings.DEFAULT);
    }

    public static SqlRenderer renderer(dev.cryo.contracts.Engine engine) {
        return switch (engine) {
            case TRINO -> trino();
            case SPARK -> spark();
            case NATIVE -> throw new IllegalArgumentException("the native engine renders no SQL");
        };
    }

    /** The parameters a table policy gives: 512 MiB files, 7 days of snapshots, orphans after 3 days. */
    public static OperationParameters parameters() {
        return new OperationParameters(TARGET_BYTES, Duration.ofDays(7), null, Duration.ofDays(3));
    }

    public static PlannedOperation operation(Operation operation, OperationParameters parameters, Chunk... chunks) {
        return new PlannedOperation(operation, List.of(Check.SMALL_FILES), Arrays.asList(chunks), parameters, Estimate.ZERO);
    }

    public static PlannedOperation operation(Operation operation, Chunk... chunks) {
        return operation(operation, parameters(), chunks);
    }

    public static Chunk chunk(PartitionPredicate... partitions) {
        return new Chunk(0, Arrays.asList(partitions), Estimate.ZERO);
    }

    public static PartitionPredicate partition(int specId, FieldPredicate... fields) {
        return new PartitionPredicate(specId, Arrays.asList(fields));
    }

    public static FieldPredicate identity(String column, String type, String value) {
        return new FieldPredicate(column, column, type, "identity", value, null, null, value);
    }

    public static FieldPredicate field(String field, String column, String type, String transform, String value,
                                       String lower, String upper) {
        return new FieldPredicate(field, column, type, transform, value, lower, upper, value);
    }

    private Fixtures() {
    }
}
