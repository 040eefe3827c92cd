package dev.cryo.scorer.persistence;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.scorer.FreshConsumerGroup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The store on the real database: redelivery before and after publication, and racing first grades. */
@QuarkusTest
@QuarkusTestResource(FreshConsumerGroup.class)
class GradeStoreTest {

    @Inject
    GradeStore store;

    @Test
    void aScanStoredButNotPublishedComesBackWithItsEventsAndNothingOnceTheyArePublished() {
        TableId table = table();
        GradingRecord record = record(table, UUID.randomUUID().toString(), 92, Grade.A, Instant.now());

        Recorded first = store.record(record);
        Recorded redelivered = store.record(record(table, record.graded().data().scanId(), 92, Grade.A, Instant.now()));

        assertThat(first.outcome()).isEqualTo(Recorded.Outcome.NEW_CURRENT);
        assertThat(first.change()).isPresent();
        assertThat(redelivered.outcome()).isEqualTo(Recorded.Outcome.STORED_UNPUBLISHED);
        assertThat(redelivered.toPublish()).isEqualTo(first.toPublish());
        store.markPublished(table, record.graded().data().scanId());
        Recorded afterPublication = store.record(record);
        assertThat(afterPublication.outcome()).isEqualTo(Recorded.Outcome.STORED_PUBLISHED);
        assertThat(afterPublication.toPublish()).isEmpty();
        assertThat(store.history(table, 10)).hasSize(1);
    }

    @Test
    void aScanIdReusedForAnotherTableIsNotARedelivery() {
        String scanId = "scan-1";

        Recorded one = store.record(record(table(), scanId, 100, Grade.A, Instant.now()));
        Recorded other = store.record(record(table(), scanId, 60, Grade.C, Instant.now()));

        assertThat(one.outcome()).isEqualTo(Recorded.Outcome.NEW_CURRENT);
        assertThat(other.outcome()).isEqualTo(Recorded.Outcome.NEW_CURRENT);
        assertThat(other.change().orElseThrow().data().grade()).isEqualTo(Grade.C);
    }

    @Test
    void racingFirstGradesOfOneTableAnnounceItOnce() throws Exception {
        TableId table = table();
        Instant scannedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<CompletableFuture<Recorded>> recorded = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                GradingRecord record = record(table, UUID.randomUUID().toString(), 92, Grade.A, scannedAt.plusMillis(i));
                recorded.add(CompletableFuture.supplyAsync(() -> store.record(record), threads));
            }
            CompletableFuture.allOf(recorded.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

            assertThat(recorded).filteredOn(future -> future.join().change().isPresent()).hasSize(1);
            assertThat(store.history(table, 20)).hasSize(8);
            assertThat(store.current(table).orElseThrow().graded().grade()).isEqualTo(Grade.A);
        } finally {
            threads.shutdownNow();
        }
    }

    private static TableId table() {
        return TableId.parse("store.race.t" + UUID.randomUUID().toString().substring(0, 8));
    }

    private static GradingRecord record(TableId table, String scanId, int score, Grade grade, Instant scannedAt) {
        TableGraded graded = new TableGraded(table, scanId, 1L, scannedAt, score, grade, 1, List.of(), List.of());
        EventEnvelope<TableGraded> envelope = new EventEnvelope<>("graded-" + scanId, EventType.TABLE_GRADED,
                "/cryo/scorer", scannedAt, table.toString(), "chain-" + scanId, null, graded);
        return new GradingRecord(envelope, "changed-" + table + "-" + scanId, scannedAt, 1024, Map.of(),
                List.of(Operation.OPTIMIZE));
    }
}
