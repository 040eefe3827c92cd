package dev.cryo.cli.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.testsupport.Infrastructure;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Against a demo started with the local Hive Metastore ({@code ./cryo demo --with hms}, run with
 * {@code -Pe2e -Dcryo.e2e.groups=e2e-hms}): a fragmented table created through the metastore is
 * found by the scanner's watcher, graded, planned and compacted by the native engine, its commit
 * goes through the metastore, and every row is as it was. The metastore spells names in lower
 * case, and Cryo's ids, API paths and CLI arguments use them as it spells them.
 */
@Tag("e2e-hms")
class HiveMetastoreEndToEndTest {

    static final String CATALOG = "hms";

    final RunningDemo demo = new RunningDemo();

    @Test
    void aFragmentedTableCreatedThroughTheMetastoreIsGradedAndCompactedByTheNativeEngineWithEveryRowKept() throws Exception {
        String asked = DemoTables.uniqueName("Fragmented");
        String table = CATALOG + "." + DemoTables.NAMESPACE + "." + asked.toLowerCase();
        RunningDemo.Run pause = demo.cryo(DemoTables.COMMAND, "pause", table, "--reason", "e2e: written first");
        assertThat(pause.exit()).as(pause.err()).isZero();
        Map<String, String> properties = LocalCatalogs.hive(Infrastructure.hiveMetastoreUri(),
                demo.warehouse().resolveSibling("hms-warehouse"));
        try (CatalogRegistry registry = CatalogRegistry.create(Map.of(CATALOG, properties))) {
            Catalog catalog = registry.catalog(CATALOG);
            TableIdentifier identifier = TableIdentifier.of(Namespace.of(DemoTables.NAMESPACE), asked);
            Table created = DemoTables.createPartitionedTable(catalog, identifier, Map.of());
            try {
                DemoTables.fragment(created, new Random(26), 0);
                created.refresh();
                Fingerprint rows = Fingerprints.ofTable(created);
                JsonNode before = new DemoTables(demo).awaitGradeOfCurrentSnapshot(table, created);
                assertThat(before.path("table").asText()).isEqualTo(table);
                assertThat(before.path("deductions").findValuesAsText("check")).contains("small-files");
                RunningDemo.Run grade = demo.cryo(DemoTables.COMMAND, "grade", table);
                assertThat(grade.exit()).as(grade.err()).isEqualTo(1);
                assertThat(grade.out()).contains(table, "small-files");

                RunningDemo.Run resume = demo.cryo(DemoTables.COMMAND, "resume", table);
                assertThat(resume.exit()).as(resume.err()).isZero();
                JsonNode score = new DemoTables(demo).awaitJobScore(table);

                JsonNode job = demo.get("executor", "/api/v1/jobs/" + ApiClient.segment(score.path("jobId").asText()));
                assertThat(job.path("job").path("outcome").asText()).as(job.toString()).isEqualToIgnoringCase("succeeded");
                assertThat(job.path("steps").findValuesAsText("step")).as(job.toString()).anyMatch(step -> step.startsWith("optimize"));
                assertThat(demo.get("governor", "/api/v1/tables/" + ApiClient.segment(table)).path("engine").asText())
                        .as("the table's engine").isEqualTo("native");
                assertThat(score.path("actualScore").asInt()).as(score.path("message").asText())
                        .isGreaterThan(before.path("score").asInt());
                await("the grade after the job").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2))
                        .untilAsserted(() -> assertThat(demo.get("scorer", "/api/v1/tables/" + ApiClient.segment(table))
                                .path("deductions").findValuesAsText("check")).doesNotContain("small-files"));
                Table reloaded = registry.catalog(CATALOG).loadTable(identifier);
                assertThat(reloaded.currentSnapshot().snapshotId()).as("the job committed through the metastore")
                        .isNotEqualTo(created.currentSnapshot().snapshotId());
                assertThat(Fingerprints.ofTable(reloaded)).as("rows of " + table + " after the job").isEqualTo(rows);
            } finally {
                catalog.dropTable(identifier, true);
                demo.cryo(DemoTables.COMMAND, "resume", table);
            }
        }
    }
}
