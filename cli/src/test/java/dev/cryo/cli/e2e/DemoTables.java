package dev.cryo.cli.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.testsupport.Infrastructure;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tables the end-to-end tests write into the running demo's catalog, in a namespace of their own
 * ({@value #NAMESPACE}), as any writer would: created, written, watched through Cryo, dropped.
 */
final class DemoTables {

    static final String NAMESPACE = "demo_e2e";
    static final Duration COMMAND = Duration.ofMinutes(2);

    private final RunningDemo demo;

    DemoTables(RunningDemo demo) {
        this.demo = demo;
    }

    /** {@code prefix_1a2b3c4d}: a name no earlier run used. */
    static String uniqueName(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().substring(0, 8);
    }

    static String tableId(String name) {
        return RunningDemo.CATALOG + "." + NAMESPACE + "." + name;
    }

    /** Creates the day-partitioned table {@code name} with the extra table properties, runs the step, drops it. */
    void withTable(String name, Map<String, String> tableProperties, TableStep step) throws Exception {
        Map<String, String> properties = new HashMap<>(LocalCatalogs.jdbc(demo.pgServerUrl(), Infrastructure.catalogUser(), "", "cryo_catalog",
                demo.warehouse()));
        try (CatalogRegistry registry = CatalogRegistry.create(Map.of(RunningDemo.CATALOG, properties))) {
            Catalog catalog = registry.catalog(RunningDemo.CATALOG);
            TableIdentifier identifier = TableIdentifier.of(Namespace.of(NAMESPACE), name);
            Table created = createPartitionedTable(catalog, identifier, tableProperties);
            try {
                step.run(tableId(name), created);
            } finally {
                catalog.dropTable(identifier, true);
            }
        }
    }

    /** Steps on a new table: {@code whilePaused} runs with its maintenance paused, {@code afterResume} after. */
    void withPausedTable(String name, Map<String, String> tableProperties, TableStep whilePaused, TableStep afterResume)
            throws Exception {
        String table = tableId(name);
        RunningDemo.Run pause = demo.cryo(COMMAND, "pause", table, "--reason", "e2e: written first");
        assertThat(pause.exit()).as(pause.err()).isZero();
        boolean[] paused = {true};
        try {
            withTable(name, tableProperties, (id, created) -> {
                whilePaused.run(id, created);
                RunningDemo.Run resume = demo.cryo(COMMAND, "resume", id);
                assertThat(resume.exit()).as(resume.err()).isZero();
                paused[0] = false;
                afterResume.run(id, created);
            });
        } finally {
            if (paused[0]) {
                demo.cryo(COMMAND, "resume", table);
            }
        }
    }

    @FunctionalInterface
    interface TableStep {
        void run(String table, Table created) throws Exception;
    }

    /** The scorer's grade of the table's current snapshot, once it is there. */
    JsonNode awaitGradeOfCurrentSnapshot(String table, Table created) {
        created.refresh();
        long snapshotId = created.currentSnapshot().snapshotId();
        AtomicReference<JsonNode> grade = new AtomicReference<>();
        // 404 until the scorer has graded the new table: keep asking.
        await("the grade of " + table + " at snapshot " + snapshotId).atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(2)).ignoreExceptions().untilAsserted(() -> {
                    JsonNode current = demo.get("scorer", "/api/v1/tables/" + ApiClient.segment(table));
                    assertThat(current.path("snapshotId").asLong()).isEqualTo(snapshotId);
                    grade.set(current);
                });
        return grade.get();
    }

    /** The planner's score of the table's newest job (the scanner rescans after the job, the scorer grades). */
    JsonNode awaitJobScore(String table) {
        AtomicReference<JsonNode> score = new AtomicReference<>();
        await("the score of a job on " + table).atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(3))
                .ignoreExceptions().untilAsserted(() -> {
                    JsonNode scores = demo.get("planner", "/api/v1/job-scores?since=PT1H&table=" + ApiClient.query(table));
                    assertThat(scores.path("scores").size()).isGreaterThanOrEqualTo(1);
                    JsonNode all = scores.path("scores");
                    score.set(all.get(all.size() - 1));
                });
        return score.get();
    }

    /** The executors' records of the table's jobs, newest first. */
    List<JsonNode> jobsOf(String table) throws Exception {
        List<JsonNode> jobs = new ArrayList<>();
        for (JsonNode job : demo.get("executor", "/api/v1/jobs?limit=500")) {
            if (table.equals(job.path("table").asText())) {
                jobs.add(job);
            }
        }
        return jobs;
    }

    static Table createPartitionedTable(Catalog catalog, TableIdentifier identifier, Map<String, String> properties) {
        if (catalog instanceof SupportsNamespaces namespaces && !namespaces.namespaceExists(identifier.namespace())) {
            namespaces.createNamespace(identifier.namespace());
        }
        return catalog.buildTable(identifier, SampleTables.EVENTS)
                .withPartitionSpec(PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build())
                .withProperty("write.target-file-size-bytes", String.valueOf(2 * 1024 * 1024))
                .withProperties(properties)
                .create();
    }

    /** Twelve commits of one small file in each of three day partitions: small-files critical. */
    static void fragment(Table table, Random random, long firstId) {
        fragment(table, random, firstId, 12, 3, 200);
    }

    /** {@code commits} commits of one small file of {@code rows} rows in each of {@code days} day partitions. */
    static void fragment(Table table, Random random, long firstId, int commits, int days, int rows) {
        TableWriter writer = new TableWriter(table);
        OffsetDateTime today = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.DAYS);
        long id = firstId;
        for (int commit = 0; commit < commits; commit++) {
            List<Record> batch = new ArrayList<>();
            for (int day = 1; day <= days; day++) {
                batch.addAll(SampleTables.events(random, id, rows, today.minusDays(day), Duration.ofHours(20), 10, 100));
                id += rows;
            }
            writer.append(batch);
        }
    }
}
