package dev.cryo.console.domain;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.console.client.AuditApi.AuditEvent;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.FileCounts;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationStatus;
import dev.cryo.contracts.json.EventJson;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AuditTimelineTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    @Test
    void eventsGroupIntoOneChainPerChangeNewestChainFirstEachOldestEventFirst() {
        List<AuditEvent> events = List.of(
                event(7, "c2", "job", "dev.cryo.job.heartbeat.v1", 70, null),
                event(6, "c2", "plan", "dev.cryo.maintenance.planned.v1", 60, "operator:alice"),
                event(5, "c2", "change", "dev.cryo.table.changed.v1", 50, "operator:alice"),
                event(4, "c1", "grade", "dev.cryo.table.graded.v1", 40, null),
                event(3, "c1", "change", "dev.cryo.table.changed.v1", 10, null),
                event(2, "c1", "scan", "dev.cryo.table.scanned.v1", 20, null),
                event(8, "c2", "job", "dev.cryo.job.heartbeat.v1", 75, null));

        List<AuditTimeline.Chain> chains = AuditTimeline.of(events);

        assertThat(chains).extracting(AuditTimeline.Chain::correlationId).containsExactly("c2", "c1");
        AuditTimeline.Chain fix = chains.get(0);
        assertThat(fix.actor()).isEqualTo("operator:alice");
        assertThat(fix.heartbeats()).isEqualTo(2);
        assertThat(fix.stages()).isEqualTo("change → plan");
        assertThat(fix.entries()).extracting(AuditTimeline.Entry::shortType)
                .containsExactly("table.changed", "maintenance.planned");
        assertThat(chains.get(1).stages()).isEqualTo("change → scan → grade");
        assertThat(chains.get(1).startedAt()).isEqualTo(T0.plusSeconds(10));
    }

    @Test
    void deadLettersAndFailuresAreMarked() {
        AuditEvent dead = new AuditEvent(9, T0, "kafka:cryo.plans.v1/0/12", "dead-letter", "failed-delivery", T0, null,
                "lake.web.clicks", List.of(), null, null, null, null, null, "no such table", null, null, null, null);

        AuditTimeline.Chain chain = AuditTimeline.of(List.of(dead)).get(0);

        assertThat(chain.correlationId()).isNull();
        assertThat(chain.entries().get(0).failed()).isTrue();
        assertThat(chain.entries().get(0).shortType()).isEqualTo("dead-letter");
    }

    @Test
    void operationResultsAreReadFromTheirPayloadsAndUnreadableOnesAreNamed() {
        OperationFinished finished = new OperationFinished("job-1", "plan-1", TableId.parse("lake.web.clicks"),
                Operation.OPTIMIZE, 0, Engine.NATIVE, null, OperationStatus.SUCCEEDED, new FileCounts(12, 12_000, 0, 120),
                new FileCounts(1, 11_000, 0, 120), 8L, true, Duration.ofSeconds(3), 0, null, null, null, T0);
        JsonNode payload = EventJson.mapper().valueToTree(finished);
        JsonNode broken = EventJson.mapper().createObjectNode().put("jobId", "job-2");

        AuditTimeline.Results results = AuditTimeline.operationResults(List.of(
                withPayload(1, payload), withPayload(2, broken), event(3, "c", "grade", "dev.cryo.table.graded.v1", 0, null)));

        assertThat(results.finished()).containsExactly(finished);
        assertThat(results.unreadable()).singleElement().asString().startsWith("audit row 2: ");
    }

    private static AuditEvent event(long id, String correlation, String stage, String type, int second, String actor) {
        return new AuditEvent(id, T0.plusSeconds(second), "e" + id, "event", stage, T0.plusSeconds(second), type,
                "lake.web.clicks", List.of(), null, null, null, actor, null, "detail " + id, correlation, null, null, null);
    }

    private static AuditEvent withPayload(long id, JsonNode payload) {
        return new AuditEvent(id, T0, "e" + id, "event", "job", T0, "dev.cryo.operation.finished.v1", "lake.web.clicks",
                List.of("optimize"), "native", "succeeded", 3000L, null, null, null, "c", "job-1", "plan-1", payload);
    }
}
