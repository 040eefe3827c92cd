package dev.cryo.enginesql.engines;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.enginesql.ExecutedStatement;
import dev.cryo.enginesql.Rendering;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The renderers' optimize, run on the real Trino and the real Spark for every transform: a
 * fragmented table, a chunk of some of its partitions as the planner writes it, the rendered
 * statements executed by the engine. The chosen partitions end with one file each, the others
 * keep theirs, and the table's fingerprint does not change.
 */
@Tag("engines")
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class EngineOptimizeTest {

    private static final String NAMESPACE = "cryo_es_" + UUID.randomUUID().toString().substring(0, 8);
    private static final String HOSTILE_COLUMN = "cat'e\"go`ry\\ x😀";

    record Case(String name, String categoryColumn, Function<PartitionSpec.Builder, PartitionSpec.Builder> spec,
                Function<PartitionSpec.Builder, PartitionSpec.Builder> evolvedSpec, Predicate<DataFile> chosen) {
        @Override
        public String toString() {
            return name;
        }
    }

    @BeforeAll
    static void namespace() {
        RealEngines.requireRunning();
        RealEngines.createNamespace(NAMESPACE);
    }

    @AfterAll
    static void dropNamespace() {
        RealEngines.dropNamespace(NAMESPACE);
    }

    static Stream<Arguments> cases() {
        List<Case> cases = List.of(
                new Case("identity", "category", spec -> spec.identity("category"), null,
                        file -> Set.of("o'neil", "new\nline", "back\\slash", "null").contains(String.valueOf(file.partition().get(0, String.class)))),
                new Case("identity-hostile-column", HOSTILE_COLUMN, spec -> spec.identity(HOSTILE_COLUMN), null,
                        file -> Set.of("o'neil", "😀 emoji").contains(String.valueOf(file.partition().get(0, String.class)))),
                new Case("year", "category", spec -> spec.year("event_ts"), null, file -> true),
                new Case("month", "category", spec -> spec.month("event_ts"), null,
                        file -> file.partition().get(0, Integer.class) == (2024 - 1970) * 12),
                new Case("day", "category", spec -> spec.day("event_ts"), null,
                        file -> file.partition().get(0, Integer.class) != 19753),
                new Case("hour", "category", spec -> spec.hour("event_ts"), null,
                        file -> Set.of(474082, 474083).contains(file.partition().get(0, Integer.class))),
                new Case("bucket", "category", spec -> spec.bucket("id", 4), null,
                        file -> file.partition().get(0, Integer.class) < 2),
                new Case("truncate", "category", spec -> spec.truncate("category", 4), null,
                        file -> Set.of("abcd", "ab", "o'ne").contains(String.valueOf(file.partition().get(0, String.class)))),
                new Case("evolved", "category", spec -> spec.day("event_ts"), spec -> spec.hour("event_ts"),
                        file -> file.specId() == 0 ? file.partition().get(0, Integer.class) == 19753
                                : file.partition().get(0, Integer.class) == 474106),
                new Case("identity-day", "category", spec -> spec.identity("category").day("event_ts"), null,
                        file -> file.partition().get(1, Integer.class) == 19752
                                && Set.of("o'neil", "null").contains(String.valueOf(file.partition().get(0, String.class)))));
        List<Arguments> arguments = new ArrayList<>();
        for (Engine engine : List.of(Engine.TRINO, Engine.SPARK)) {
            cases.forEach(c -> arguments.add(Arguments.of(engine, c)));
        }
        return arguments.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void optimizeRewritesExactlyTheChosenPartitions(Engine engine, Case c) {
        String tableName = engine.id() + "_" + c.name().replace('-', '_') + ("identity".equals(c.name()) ? " it's \"odd\"" : "");
        Schema schema = FragmentedTables.schema(c.categoryColumn());
        Table table = FragmentedTables.create(NAMESPACE, tableName, schema, c.spec());
        FragmentedTables.fragment(table, 4, 0);
        if (c.evolvedSpec() != null) {
            table.updateSpec().removeField("event_ts_day").addField(org.apache.iceberg.expressions.Expressions.hour("event_ts")).commit();
            FragmentedTables.fragment(table, 4, 10_000);
        }
        Fingerprint before = Fingerprints.ofTable(table);
        Map<String, Integer> filesBefore = FragmentedTables.dataFilesByPartition(table);

        Map<String, PartitionPredicate> chosen = new LinkedHashMap<>();
        for (DataFile file : FragmentedTables.dataFiles(table)) {
            if (c.chosen().test(file)) {
                chosen.putIfAbsent(FragmentedTables.key(table, file.specId(), file.partition()),
                        PlannedPartitions.of(table.specs().get(file.specId()), file.partition()));
            }
        }
        assertThat(chosen).as("partitions chosen for %s", c).isNotEmpty();
        assertThat(chosen.keySet()).allSatisfy(key -> assertThat(filesBefore.get(key)).isGreaterThanOrEqualTo(2));

        Chunk chunk = new Chunk(0, List.copyOf(chosen.values()), Estimate.ZERO);
        PlannedOperation optimize = new PlannedOperation(Operation.OPTIMIZE, List.of(Check.SMALL_FILES), List.of(chunk),
                new OperationParameters(128L * 1024 * 1024, null, null, null), Estimate.ZERO);
        TableId id = new TableId(RealEngines.CATALOG, List.of(NAMESPACE), tableName);
        Rendering rendering = RealEngines.renderer(engine).render(id, optimize, chunk);
        assertThat(rendering).as("rendering for %s on %s", c, engine).isInstanceOf(Rendering.Statements.class);

        List<ExecutedStatement> executed = RealEngines.client(engine)
                .execute("optimize-" + c.name() + "-" + UUID.randomUUID(), ((Rendering.Statements) rendering).statements());

        assertThat(executed).allSatisfy(statement -> assertThat(statement.queryId()).isNotBlank());
        Map<String, Integer> filesAfter = FragmentedTables.dataFilesByPartition(table);
        assertThat(Fingerprints.ofTable(table)).as("fingerprint after %s on %s", c, engine).isEqualTo(before);
        boolean evolved = c.evolvedSpec() != null;
        for (String key : chosen.keySet()) {
            // The older spec's partition is rewritten into the current spec; with Spark, the newer
            // partition also receives the older spec's rows of the same hour (one more file).
            int allowed = evolved ? (key.startsWith("0:") ? 0 : 2) : 1;
            assertThat(filesAfter.getOrDefault(key, 0)).as("files of chosen partition %s after %s", key, engine)
                    .isLessThanOrEqualTo(allowed);
        }
        for (Map.Entry<String, Integer> entry : filesBefore.entrySet()) {
            if (chosen.containsKey(entry.getKey())) {
                continue;
            }
            if (evolved && receivesRowsOfTheRewrittenDay(entry.getKey())) {
                assertThat(filesAfter.getOrDefault(entry.getKey(), 0)).as("files of partition %s after %s", entry.getKey(), engine)
                        .isLessThanOrEqualTo(entry.getValue() + 1);
            } else {
                assertThat(filesAfter.get(entry.getKey())).as("files of untouched partition %s after %s", entry.getKey(), engine)
                        .isEqualTo(entry.getValue());
            }
        }
        EngineReport.record(engine, "optimize " + c.name() + ": " + chosen.size() + " partitions, data files "
                + filesBefore.values().stream().mapToInt(Integer::intValue).sum() + " -> "
                + filesAfter.values().stream().mapToInt(Integer::intValue).sum() + ", query ids "
                + executed.stream().map(ExecutedStatement::queryId).toList() + ", "
                + String.format(Locale.ROOT, "%.1f s", executed.stream().mapToLong(s -> s.elapsed().toMillis()).sum() / 1000.0));
    }

    /**
     * In the evolved table the day partition 2024-01-31 of the older spec is rewritten into the
     * current spec's hour partitions of that day, which gain its rows: Trino adds one file to
     * each; Spark, which selects files by rows rather than by spec, rewrites them together with it.
     * Spark's range for hour 2024-02-01-10 likewise takes in the older spec's day 2024-02-01.
     */
    private static boolean receivesRowsOfTheRewrittenDay(String key) {
        return key.startsWith("1:event_ts_hour=2024-01-31-") || key.equals("0:event_ts_day=2024-02-01");
    }
}
