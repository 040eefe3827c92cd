package dev.cryo.scorer.rest;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.scorer.KafkaScans;
import dev.cryo.scoring.fixtures.ScanBuilder;
import dev.cryo.scorer.FreshConsumerGroup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.cryo.scoring.fixtures.ScanBuilder.GIB;
import static dev.cryo.scoring.fixtures.ScanBuilder.healthy;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/**
 * The REST API over grades that came in through Kafka. The tables live in a catalog of their own,
 * so listings filtered by it see only this test's tables.
 */
@QuarkusTest
@QuarkusTestResource(FreshConsumerGroup.class)
class TablesResourceTest {

    private static final String CATALOG = "rest" + UUID.randomUUID().toString().substring(0, 8);
    private static final String ORDERS = CATALOG + ".sales.orders";
    private static final String REFUNDS = CATALOG + ".sales.refunds";
    private static final String CLICKS = CATALOG + ".web.clicks";
    private static final String PATTERNED = CATALOG + ".patterned.events";
    /** Snapshots of days ago are expirable only where the table's retention is shorter: else the checks are held. */
    private static final String EXPIRE_AFTER = dev.cryo.scoring.SnapshotExpiry.MAX_SNAPSHOT_AGE_PROPERTY;
    private static final Instant START = Instant.now().minusSeconds(600);

    private static KafkaScans kafka;
    private static boolean graded;

    @BeforeAll
    static void connect() {
        kafka = new KafkaScans();
    }

    /** Once, before the first test: RestAssured knows the test port only from the first test on. */
    @BeforeEach
    void gradeFourTables() {
        if (graded) {
            return;
        }
        kafka.awaitConsuming();
        // orders: 100, A, with a table property; refunds: 60, C; clicks: 0, F; patterned: 84, B (the pattern makes
        // 55 % small files a warning, not critical)
        kafka.send(scan(ORDERS, START).property("cryo.snapshot-count.warning", "50").build(), "system");
        kafka.send(scan(REFUNDS, START).snapshots(600, START.minus(Duration.ofDays(2))).property(EXPIRE_AFTER, "86400000")
                .manifests(600, null).build(), "system");
        kafka.send(scan(CLICKS, START).dataBytes(2 * GIB).dataFiles(60_000).smallFiles(40_000).oversizedFiles(30_000)
                .records(1000).positionDeletes(600, 300).equalityDeletes(100, 0)
                .snapshots(600, START.minus(Duration.ofDays(40))).manifests(600, null).build(), "system");
        kafka.send(scan(PATTERNED, START).dataFiles(1000).smallFiles(550).manifests(150, null).build(), "system");
        await().atMost(KafkaScans.TIMEOUT).until(() -> listing("catalog=" + CATALOG).getInt("total") == 4);
        graded = true;
    }

    @AfterAll
    static void disconnect() {
        kafka.close();
    }

    @Test
    void theListingSortsWorstFirstAndFilters() {
        JsonPath all = listing("catalog=" + CATALOG);
        assertThat(all.getList("tables.table")).containsExactly(CLICKS, REFUNDS, PATTERNED, ORDERS);
        assertThat(all.getList("tables.score", Integer.class)).containsExactly(0, 60, 84, 100);
        assertThat(all.getString("tables[0].topDeduction.severity")).isEqualTo("critical");
        assertThat(all.getString("tables[0].topDeduction.check")).isEqualTo("small-files");
        assertThat(all.getString("tables[3].topDeduction")).isNull();
        assertThat(all.getString("tables[1].namespace")).isEqualTo("sales");

        assertThat(listing("catalog=" + CATALOG + "&grade=C").getList("tables.table")).containsExactly(REFUNDS);
        assertThat(listing("catalog=" + CATALOG + "&grade=a,f").getList("tables.table")).containsExactly(CLICKS, ORDERS);
        assertThat(listing("catalog=" + CATALOG + "&namespace=sales&sort=table&order=desc").getList("tables.table"))
                .containsExactly(REFUNDS, ORDERS);
        JsonPath page = listing("catalog=" + CATALOG + "&sort=score&order=desc&limit=2&offset=1");
        assertThat(page.getList("tables.table")).containsExactly(PATTERNED, REFUNDS);
        assertThat(page.getInt("total")).isEqualTo(4);
    }

    @Test
    void oneTableShowsEveryDeductionAndNotEvaluatedCheck() {
        JsonPath clicks = given().get("/api/v1/tables/" + CLICKS).then().statusCode(200).extract().jsonPath();

        assertThat(clicks.getString("grade")).isEqualTo("F");
        assertThat(clicks.getInt("score")).isZero();
        assertThat(clicks.getList("deductions.check")).containsExactly("small-files", "file-count", "oversized-files",
                "delete-ratio", "equality-deletes", "position-deletes", "snapshot-count", "snapshot-age", "manifest-count");
        assertThat(clicks.getList("fixes")).containsExactly("convert_deletes", "rewrite_position_deletes", "optimize",
                "optimize_manifests", "expire_snapshots");
        assertThat(clicks.getList("notEvaluated.check")).containsExactly("manifest-clustering", "orphan-files");
        assertThat(clicks.getString("deductions[0].explanation")).isEqualTo("66.7 % of data files are under 128 MiB and could be merged in their partition (limit 50 %)");
    }

    @Test
    void theHistoryListsEveryGradingNewestFirst() {
        String table = CATALOG + ".sales.history" + UUID.randomUUID().toString().substring(0, 6);
        kafka.send(scan(table, START).build(), "system");
        kafka.send(scan(table, START.plusSeconds(1)).manifests(150, null).build(), "system");
        EventEnvelope<TableScanned> asked = kafka.send(scan(table, START.plusSeconds(2))
                .snapshots(600, START.minus(Duration.ofDays(1))).property(EXPIRE_AFTER, "3600000").build(), "operator:alice");

        await().atMost(KafkaScans.TIMEOUT).until(() -> given().get("/api/v1/tables/" + table + "/history").statusCode() == 200
                && given().get("/api/v1/tables/" + table + "/history").jsonPath().getList("$").size() == 3);
        JsonPath history = given().get("/api/v1/tables/" + table + "/history").jsonPath();

        assertThat(history.getList("score", Integer.class)).containsExactly(80, 92, 100);
        assertThat(history.getList("grade")).containsExactly("B", "A", "A");
        assertThat(history.getList("gradeChanged", Boolean.class)).containsExactly(true, false, true);
        assertThat(history.getList("previousGrade")).containsExactly("A", null, null);
        assertThat(given().get("/api/v1/tables/" + table + "/history?limit=1").jsonPath().getList("score", Integer.class))
                .containsExactly(80);
        // the chain each grading belongs to, and who asked: what ./cryo fix follows its own request by
        assertThat(history.getString("[0].correlationId")).isEqualTo(asked.correlationId());
        assertThat(history.getString("[0].requestedBy")).isEqualTo("operator:alice");
        assertThat(history.getString("[1].correlationId")).isNotEqualTo(asked.correlationId());
        JsonPath current = given().get("/api/v1/tables/" + table).jsonPath();
        assertThat(current.getString("correlationId")).isEqualTo(asked.correlationId());
        assertThat(current.getString("requestedBy")).isEqualTo("operator:alice");
    }

    @Test
    void thePolicyShowsWhereEveryLimitCameFrom() {
        JsonPath orders = given().get("/api/v1/tables/" + ORDERS + "/policy").then().statusCode(200).extract().jsonPath();

        Map<String, Object> snapshotCount = check(orders, "snapshot-count");
        assertThat(value(snapshotCount, "warning", "value")).isEqualTo(50.0f);
        assertThat(value(snapshotCount, "warning", "source")).isEqualTo("table-property:cryo.snapshot-count.warning");
        assertThat(value(snapshotCount, "critical", "source")).isEqualTo("default");
        assertThat(value(snapshotCount, "critical", "text")).isEqualTo("500");
        assertThat(value(snapshotCount, "enabled", "source")).isEqualTo("default");
        assertThat(orders.getString("pattern")).isNull();
        assertThat(orders.getList("checks.check")).hasSize(14);

        JsonPath patterned = given().get("/api/v1/tables/" + PATTERNED + "/policy").jsonPath();
        Map<String, Object> smallFiles = check(patterned, "small-files");
        assertThat(patterned.getString("pattern")).isEqualTo("patterned.*");
        assertThat(value(smallFiles, "critical", "source")).isEqualTo("pattern:patterned.*");
        assertThat(value(smallFiles, "critical", "key"))
                .isEqualTo("cryo.scorer.policies.\"patterned.*\".checks.\"small-files\".critical");
        assertThat(value(smallFiles, "critical", "text")).isEqualTo("60 %");
        assertThat(value(smallFiles, "warning", "source")).isEqualTo("default");
        Map<String, Object> missingStatistics = check(patterned, "missing-statistics");
        assertThat(value(missingStatistics, "critical", "text")).isEqualTo("none");
        Map<String, Object> orphans = check(patterned, "orphan-files");
        assertThat(orphans.get("effectiveUnit")).isEqualTo("bytes");
        assertThat(value(orphans, "warningBytes", "text")).isEqualTo("1 GiB");
    }

    @Test
    void badTablePropertiesAreReportedInThePolicy() {
        String table = CATALOG + ".sales.typo" + UUID.randomUUID().toString().substring(0, 6);
        kafka.send(scan(table, START).dataBytes(400 * GIB).property("cryo.file-count.warning", "many").build(), "system");
        await().atMost(KafkaScans.TIMEOUT).until(() -> given().get("/api/v1/tables/" + table + "/policy").statusCode() == 200);

        JsonPath policy = given().get("/api/v1/tables/" + table + "/policy").jsonPath();

        assertThat(policy.getList("problems")).containsExactly("Cannot use cryo.file-count.warning=many: 'many' is not a "
                + "count. All cryo.file-count.* table properties are ignored; file-count uses its configured policy");
        Map<String, Object> fileCount = check(policy, "file-count");
        assertThat(value(fileCount, "warning", "source")).isEqualTo("default");
        assertThat(policy.getDouble("sizeScale")).isEqualTo(2.0);
        assertThat(((Number) fileCount.get("effectiveWarning")).doubleValue()).isEqualTo(20_000.0);
        assertThat(((Number) fileCount.get("effectiveCritical")).doubleValue()).isEqualTo(100_000.0);
    }

    @Test
    void unknownAndMalformedRequestsGetClearErrors() {
        given().get("/api/v1/tables/" + CATALOG + ".nowhere.nothing").then().statusCode(404)
                .body("code", equalTo("TABLE_NOT_GRADED"))
                .body("message", equalTo("Cannot find a grade of table " + CATALOG + ".nowhere.nothing: the scorer has "
                        + "not graded it; it is graded when the scanner publishes a scan of it"));
        given().get("/api/v1/tables/" + CATALOG + ".nowhere.nothing/policy").then().statusCode(404);
        given().get("/api/v1/tables/" + CATALOG + ".nowhere.nothing/history").then().statusCode(404);
        given().get("/api/v1/tables/nodots").then().statusCode(400)
                .body("code", equalTo("INVALID_TABLE_ID"))
                .body("message", equalTo("Cannot parse table id 'nodots': expected catalog.namespace.table"));
        given().get("/api/v1/tables?sort=size").then().statusCode(400)
                .body("message", equalTo("Cannot answer the request: sort must be one of score, table, gradedAt, was 'size'"));
        given().get("/api/v1/tables?grade=E").then().statusCode(400)
                .body("message", equalTo("Cannot answer the request: grade must be one of A, B, C, D, F, was 'E'"));
        given().get("/api/v1/tables?limit=5000").then().statusCode(400)
                .body("message", equalTo("Cannot answer the request: limit must be within 1..1000 "
                        + "(cryo.scorer.api.max-limit), was 5000"));
    }

    @Test
    void snapshotsNoExpiryCanRemoveAreHeldByPolicyNotDeducted() {
        // in a catalog of its own: the listing test counts the four tables of CATALOG
        String table = "held" + UUID.randomUUID().toString().substring(0, 8) + ".sales.young";
        // 600 snapshots, all younger than the default retention of 7 days: expire_snapshots would remove none
        kafka.send(scan(table, START).snapshots(600, START.minus(Duration.ofDays(2))).build(), "system");

        await().atMost(KafkaScans.TIMEOUT).until(() -> given().get("/api/v1/tables/" + table).statusCode() == 200);
        JsonPath young = given().get("/api/v1/tables/" + table).jsonPath();

        assertThat(young.getInt("score")).isEqualTo(100);
        assertThat(young.getList("deductions")).isEmpty();
        assertThat(young.getList("fixes")).isEmpty();
        assertThat(young.getList("held.check")).containsExactly("snapshot-count");
        assertThat(young.getString("held[0].severity")).isEqualTo("critical");
        assertThat(young.getString("held[0].operation")).isEqualTo("expire_snapshots");
        assertThat(young.getString("held[0].heldBy")).startsWith("cryo.scorer.expiry.retention");
        assertThat(young.getString("held[0].explanation")).contains("all 600 snapshots are younger than the retention of 7 d");
    }

    @Test
    void gaugesShowTablesPerGradeScoresAndDeductions() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();

        assertThat(metrics).contains("cryo_table_score{table=\"" + ORDERS + "\"} 100.0");
        assertThat(metrics).contains("cryo_table_score{table=\"" + CLICKS + "\"} 0.0");
        assertThat(gauge(metrics, "cryo_tables_by_grade{grade=\"F\"}")).isGreaterThanOrEqualTo(1);
        assertThat(gauge(metrics, "cryo_deductions{check=\"small-files\",severity=\"critical\"}")).isGreaterThanOrEqualTo(1);
        assertThat(gauge(metrics, "cryo_deductions{check=\"snapshot-count\",severity=\"critical\"}")).isGreaterThanOrEqualTo(2);
    }

    private static double gauge(String metrics, String series) {
        return metrics.lines().filter(line -> line.startsWith(series + " ")).findFirst()
                .map(line -> Double.parseDouble(line.substring(series.length() + 1).trim()))
                .orElseThrow(() -> new AssertionError("no series " + series));
    }

    @SuppressWarnings("unchecked")
    private static Object value(Map<String, Object> check, String setting, String field) {
        return ((Map<String, Object>) check.get(setting)).get(field);
    }

    private static Map<String, Object> check(JsonPath policy, String check) {
        List<Map<String, Object>> checks = policy.getList("checks");
        return checks.stream().filter(entry -> check.equals(entry.get("check"))).findFirst().orElseThrow();
    }

    private static JsonPath listing(String query) {
        return given().get("/api/v1/tables?" + query).then().statusCode(200).extract().jsonPath();
    }

    private static ScanBuilder scan(String table, Instant scannedAt) {
        return healthy().table(table).scannedAt(scannedAt).snapshots(20, scannedAt.minus(Duration.ofDays(1)))
                .orphanBytes(null).records(1_000_000).rowsChangedSinceStatistics(10L);
    }
}
