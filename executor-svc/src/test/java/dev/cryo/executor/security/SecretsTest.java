package dev.cryo.executor.security;

import dev.cryo.testsupport.OperatorOnly;
import dev.cryo.testsupport.SecretLeaks;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.executor.Jobs;
import dev.cryo.executor.WarehouseResource;
import dev.cryo.executor.iceberg.TestTables;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalog's credentials and the Trino password reach the catalog and Trino's driver and nothing
 * else: a job sent to Trino (unreachable, so the step fails with the password in hand) and a job for a
 * missing table run, and neither the log, the published results nor any API answer (errors included)
 * contains a secret.
 */
@QuarkusTest
@QuarkusTestResource(WarehouseResource.class)
@QuarkusTestResource(value = SecretsResource.class, restrictToAnnotatedClass = true)
class SecretsTest {

    static final String[] SECRETS = {SecretsResource.CATALOG_PASSWORD, SecretsResource.S3_SECRET, SecretsResource.TRINO_PASSWORD};

    @Inject
    CatalogRegistry catalogs;

    @Test
    void catalogCredentialsAndTheTrinoPasswordAreInNoLogEventOrAnswer() throws IOException {
        TableId onTrino = createTable("secret_trino");
        TableId missing = TableId.of(WarehouseResource.CATALOG, "maintenance", "secret_missing_" + suffix());
        String trinoJob = "job-" + UUID.randomUUID();
        String missingJob = "job-" + UUID.randomUUID();
        List<ConsumerRecord<String, byte[]>> published;
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> mark = kafka.mark(Topics.JOBS_RESULTS, Topics.deadLetter("executor"));
            kafka.send(KafkaEnvelopes.toRecord(Jobs.admitted(onTrino, trinoJob, Engine.TRINO, List.of(
                    Jobs.whole(Operation.OPTIMIZE_MANIFESTS, OperationParameters.NONE)))));
            kafka.send(KafkaEnvelopes.toRecord(Jobs.admitted(missing, missingJob, List.of(
                    Jobs.whole(Operation.OPTIMIZE_MANIFESTS, OperationParameters.NONE)))));
            published = kafka.readAfter(mark, Duration.ofSeconds(90), records -> List.of(trinoJob, missingJob).stream()
                    .allMatch(job -> records.stream().filter(r -> r.topic().equals(Topics.JOBS_RESULTS)).map(KafkaEnvelopes::fromRecord)
                            .map(envelope -> (CryoEvent) envelope.data())
                            .anyMatch(event -> event instanceof JobFinished finished && finished.jobId().equals(job))));
        }

        assertThat(published).as("the Trino step failed with the password in hand")
                .anyMatch(record -> onTrino.toString().equals(record.key())
                        && new String(record.value(), StandardCharsets.UTF_8).contains("Cannot connect to Trino"));
        SecretLeaks.assertNotInRecords(published, SECRETS);
        SecretLeaks.assertNotInAnswers(OperatorOnly.OPERATOR, List.of("/api/v1/engines", "/api/v1/engines/routing",
                "/api/v1/jobs", "/api/v1/jobs/" + trinoJob, "/api/v1/jobs/" + missingJob, "/api/v1/jobs/no-such-job",
                "/api/v1/tables/" + missing + "/orphans", "/api/v1/tables/" + onTrino + "/orphans?ageFloor=nonsense",
                "/api/v1/dead-letters", "/q/health", "/q/metrics", "/q/openapi"), SECRETS);
        assertThat(given().get("/api/v1/engines").then().statusCode(200).extract().asString())
                .as("Trino is configured").contains("trino");
        SecretLeaks.assertNotInLog(SecretsResource.LOG, SECRETS);
    }

    private TableId createTable(String prefix) {
        var catalog = catalogs.catalog(WarehouseResource.CATALOG);
        Namespace namespace = Namespace.of("maintenance");
        if (!((SupportsNamespaces) catalog).namespaceExists(namespace)) {
            ((SupportsNamespaces) catalog).createNamespace(namespace);
        }
        String name = prefix + "_" + suffix();
        Table table = catalog.createTable(TableIdentifier.of(namespace, name), SampleTables.EVENTS, PartitionSpec.unpartitioned(),
                Map.of(TableProperties.FORMAT_VERSION, "2"));
        // Two commits, so that there are manifests to rewrite and the step has to reach Trino.
        TestTables.fill(table, 2, 50, 2, 7);
        return TableId.of(WarehouseResource.CATALOG, "maintenance", name);
    }

    private static String suffix() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
