package dev.cryo.enginesql;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PlannedOperation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.cryo.enginesql.Fixtures.chunk;
import static dev.cryo.enginesql.Fixtures.field;
import static dev.cryo.enginesql.Fixtures.identity;
import static dev.cryo.enginesql.Fixtures.operation;
import static dev.cryo.enginesql.Fixtures.partition;

/**
 * Every (engine, operation, transform) case that has a golden file. Partition operations get one
 * case per transform; whole-table operations take no partitions, so they get one case each
 * ("table"), plus expire_snapshots with retain_last.
 */
final class GoldenCases {

    static final TableId TABLE = TableId.of("lakehouse", "sales", "events");

    record GoldenCase(Engine engine, String operation, String transform, TableId table, PlannedOperation planned,
                      Chunk chunk) {
        String fileName() {
            return engine.id() + "/" + operation + "-" + transform + ".sql";
        }

        @Override
        public String toString() {
            return fileName();
        }
    }

    /** One chunk per transform, with the values the planner writes (2024-01-31 is epoch day 19753). */
    static Map<String, Chunk> chunksByTransform() {
        Map<String, Chunk> chunks = new LinkedHashMap<>();
        chunks.put("identity", chunk(
                partition(0, identity("category", "string", "c1")),
                partition(0, identity("category", "string", "o'neil")),
                partition(0, identity("category", "string", null))));
        chunks.put("year", chunk(
                partition(0, field("event_date_year", "event_date", "date", "year", "54", "2024-01-01", "2025-01-01")),
                partition(0, field("event_date_year", "event_date", "date", "year", "55", "2025-01-01", "2026-01-01"))));
        chunks.put("month", chunk(
                partition(0, field("local_ts_month", "local_ts", "timestamp", "month", "648",
                        "2024-01-01T00:00:00", "2024-02-01T00:00:00"))));
        chunks.put("day", chunk(
                partition(0, field("event_ts_day", "event_ts", "timestamptz", "day", "19753",
                        "2024-01-31T00:00:00Z", "2024-02-01T00:00:00Z")),
                partition(0, field("event_ts_day", "event_ts", "timestamptz", "day", "19754",
                        "2024-02-01T00:00:00Z", "2024-02-02T00:00:00Z"))));
        chunks.put("hour", chunk(
                partition(0, field("event_ts_hour", "event_ts", "timestamptz", "hour", "474082",
                        "2024-01-31T10:00:00Z", "2024-01-31T11:00:00Z"))));
        chunks.put("bucket", chunk(
                partition(0, field("id_bucket", "id", "long", "bucket[16]", "3", null, null)),
                partition(0, field("id_bucket", "id", "long", "bucket[16]", "7", null, null))));
        chunks.put("truncate", chunk(
                partition(0, field("category_trunc", "category", "string", "truncate[4]", "abcd", "abcd", "abce")),
                partition(0, field("category_trunc", "category", "string", "truncate[4]", "ab", null, null))));
        chunks.put("evolved", chunk(
                partition(0, field("event_ts_day", "event_ts", "timestamptz", "day", "19753",
                        "2024-01-31T00:00:00Z", "2024-02-01T00:00:00Z")),
                partition(1, field("event_ts_hour", "event_ts", "timestamptz", "hour", "474106",
                        "2024-02-01T10:00:00Z", "2024-02-01T11:00:00Z"))));
        return chunks;
    }

    static List<GoldenCase> all() {
        List<GoldenCase> cases = new ArrayList<>();
        for (Engine engine : List.of(Engine.TRINO, Engine.SPARK)) {
            for (Operation op : Operation.values()) {
                if (op.scope() == Operation.Scope.PARTITIONS) {
                    chunksByTransform().forEach((transform, chunk) ->
                            cases.add(new GoldenCase(engine, op.id(), transform, TABLE, operation(op, chunk), chunk)));
                } else {
                    cases.add(new GoldenCase(engine, op.id(), "table", TABLE, operation(op), null));
                }
            }
            OperationParameters retainLast = new OperationParameters(null, Duration.ofDays(7), 10, null);
            cases.add(new GoldenCase(engine, "expire_snapshots", "retain-last", TABLE,
                    operation(Operation.EXPIRE_SNAPSHOTS, retainLast), null));
        }
        return cases;
    }

    /** What a golden file holds: the statements, or why this engine cannot. */
    static String text(Rendering rendering) {
        if (rendering instanceof Rendering.Statements statements) {
            return String.join(";\n\n", statements.statements()) + ";\n";
        }
        Rendering.NotExpressible not = (Rendering.NotExpressible) rendering;
        return "-- not expressible on " + not.engine().id() + ": " + not.limitation() + "\n-- " + not.reason() + "\n";
    }

    private GoldenCases() {
    }
}
