package dev.cryo.scorer.security;

import dev.cryo.testsupport.SecretLeaks;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.scorer.FreshConsumerGroup;
import dev.cryo.scorer.KafkaScans;
import dev.cryo.scoring.fixtures.ScanBuilder;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;

/**
 * The database password, the scorer's only secret, reaches PostgreSQL and nothing else: with a scan
 * graded and the API asked (errors included), neither the log, the published events nor any answer
 * contains it.
 */
@QuarkusTest
@QuarkusTestResource(FreshConsumerGroup.class)
@QuarkusTestResource(value = SecretsResource.class, restrictToAnnotatedClass = true)
class SecretsTest {

    @Test
    void theDatabasePasswordIsInNoLogEventOrAnswer() throws IOException {
        List<ConsumerRecord<String, byte[]>> published = new ArrayList<>();
        List<String> tables = new ArrayList<>();
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            // This run's consumer group is new and starts at the end: send until a scan is graded.
            await().atMost(KafkaScans.TIMEOUT).pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(1)).until(() -> {
                String table = KafkaScans.uniqueTable("secret");
                tables.add(table);
                Map<TopicPartition, Long> mark = kafka.mark(Topics.TABLE_HEALTH, Topics.GRADE_CHANGES, Topics.deadLetter("scorer"));
                kafka.send(KafkaEnvelopes.toRecord(EventEnvelope.startChain(ScanBuilder.healthy().table(table).smallFiles(900)
                        .build(), "/cryo/scanner", Instant.now())));
                try {
                    published.addAll(kafka.readAfter(mark, Duration.ofSeconds(5), read -> read.stream()
                            .anyMatch(record -> table.equals(record.key()) && record.topic().equals(Topics.TABLE_HEALTH))));
                    return true;
                } catch (AssertionError notYet) {
                    return false;
                }
            });
        }
        String graded = tables.get(tables.size() - 1);

        SecretLeaks.assertNotInRecords(published, SecretsResource.PASSWORD);
        SecretLeaks.assertNotInAnswers(List.of("/api/v1/tables", "/api/v1/tables/" + graded, "/api/v1/tables/" + graded + "/history",
                "/api/v1/tables/" + graded + "/policy", "/api/v1/tables/e2e.x.never_graded", "/api/v1/tables?grade=Z",
                "/api/v1/dead-letters", "/q/health", "/q/metrics", "/q/openapi"),
                SecretsResource.PASSWORD);
        SecretLeaks.assertNotInLog(SecretsResource.LOG, SecretsResource.PASSWORD);
    }
}
