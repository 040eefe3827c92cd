package dev.cryo.console.domain;

import dev.cryo.console.client.GovernorApi.EngineLoad;
import dev.cryo.console.client.GovernorApi.EngineSlots;
import dev.cryo.console.client.GovernorApi.Queue;
import dev.cryo.console.client.GovernorApi.QueuedJob;
import dev.cryo.console.client.GovernorApi.WaitingPlan;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class QueueBoardTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    @Test
    void runningJobsShowProgressFromTheirHeartbeatsAndQuietOnesAreMarked() {
        QueuedJob busy = job("j1", NOW.minusSeconds(5), 3, 12);
        QueuedJob quiet = job("j2", NOW.minusSeconds(45), null, null);
        QueueBoard board = QueueBoard.of(new Queue(List.of(), List.of(busy, quiet), List.of()), List.of(), NOW, table -> true);

        QueueBoard.JobRow first = board.running().get(0);
        assertThat(first.progressPercent()).isEqualTo(25);
        assertThat(first.lastHeartbeat()).isEqualTo("5 s ago");
        assertThat(first.lease()).isEqualTo("lease ends in 1 min");
        assertThat(first.quiet()).isFalse();
        QueueBoard.JobRow second = board.running().get(1);
        assertThat(second.progressPercent()).isNull();
        assertThat(second.quiet()).isTrue();
        assertThat(board.idle()).isFalse();
    }

    @Test
    void deferredPlansSayWhyAndWhenWorstFirst() {
        Queue queue = new Queue(List.of(), List.of(), List.of(
                waiting("p1", 70, "cooldown", NOW.plusSeconds(300)),
                waiting("p2", 20, "paused", null),
                waiting("p3", 50, "no-slot", NOW.minusSeconds(1)),
                waiting("p4", 90, null, null)));

        QueueBoard board = QueueBoard.of(queue, List.of(), NOW, table -> true);
        List<QueueBoard.WaitingRow> rows = board.deferred();

        assertThat(rows).extracting(QueueBoard.WaitingRow::planId).containsExactly("p2", "p3", "p1", "p4");
        assertThat(rows.get(0).retry()).isEqualTo("only an event helps (a resume, a freed slot)");
        assertThat(rows.get(1).retry()).isEqualTo("due now");
        assertThat(rows.get(2).retry()).isEqualTo("in 5 min (2026-11-29 12:05:00 UTC)");
        assertThat(rows.get(3).reason()).isEqualTo("new");
        assertThat(rows.get(3).retry()).isEqualTo("not decided yet");
        assertThat(board.deferredByReason()).extracting(QueueBoard.ReasonCount::reason)
                .containsExactly("cooldown", "new", "no-slot", "paused");
    }

    @Test
    void aLongQueueIsCountedByReasonAndListsItsWorstPlansOfTheChosenTables() {
        List<WaitingPlan> plans = new java.util.ArrayList<>();
        for (int i = 0; i < QueueBoard.MAX_DEFERRED_SHOWN + 30; i++) {
            plans.add(waiting("p" + i, i % 100, "no-slot", NOW.plusSeconds(30)));
        }
        plans.add(new WaitingPlan("mine", "lakehouse.demo.orders", 40, NOW, NOW, "cooldown", "cooling down", NOW, NOW,
                "native", null));

        QueueBoard all = QueueBoard.of(new Queue(List.of(), List.of(), plans), List.of(), NOW, table -> true);
        QueueBoard demo = QueueBoard.of(new Queue(List.of(), List.of(), plans), List.of(), NOW,
                table -> table.startsWith("lakehouse.demo."));

        assertThat(all.deferred()).hasSize(QueueBoard.MAX_DEFERRED_SHOWN);
        assertThat(all.hiddenDeferred()).isEqualTo(31);
        assertThat(all.deferredCount()).isEqualTo(QueueBoard.MAX_DEFERRED_SHOWN + 31);
        assertThat(all.deferredByReason()).containsExactly(new QueueBoard.ReasonCount("cooldown", 1),
                new QueueBoard.ReasonCount("no-slot", QueueBoard.MAX_DEFERRED_SHOWN + 30));
        assertThat(demo.deferred()).extracting(QueueBoard.WaitingRow::planId).containsExactly("mine");
        assertThat(demo.hiddenDeferred()).isZero();
    }

    @Test
    void enginesShowSlotsInUseAndTheLoadTheGovernorLastRead() {
        List<QueueBoard.EngineRow> engines = QueueBoard.of(new Queue(null, null, null), List.of(
                new EngineSlots("trino", 1, 1, 10, new EngineLoad(14, 10, true, null, NOW), null, null),
                new EngineSlots("native", 4, 1, 10, null, null, null),
                new EngineSlots("spark", 0, 0, 10, new EngineLoad(null, 10, false, "no Spark load probe", NOW), null,
                        null)), NOW, table -> true).engines();

        assertThat(engines).extracting(QueueBoard.EngineRow::engine).containsExactly("native", "spark", "trino");
        assertThat(engines.get(0).usePercent()).isEqualTo(25);
        assertThat(engines.get(0).load()).isEqualTo("not read yet");
        assertThat(engines.get(1).usePercent()).isZero();
        assertThat(engines.get(1).load()).isEqualTo("load not readable");
        assertThat(QueueBoard.engine(new EngineSlots("native", 2, 0, 0, new EngineLoad(null, 0, false, null, NOW), null,
                null)).load()).isEqualTo("bounded by its slots");
        assertThat(engines.get(1).problem()).isEqualTo("no Spark load probe");
        assertThat(engines.get(2).load()).isEqualTo("14 foreign queries (limit 10)");
        assertThat(engines.get(2).overLimit()).isTrue();
    }

    private static QueuedJob job(String id, Instant heartbeat, Integer done, Integer total) {
        return new QueuedJob(id, "plan-" + id, "lake.web.clicks", "native", 0, 1, NOW.minusSeconds(120), "governor-1",
                NOW.plusSeconds(90), NOW.minusSeconds(100), "executor-1", heartbeat, "optimize", done, total, null);
    }

    private static WaitingPlan waiting(String plan, int score, String reason, Instant retryAfter) {
        return new WaitingPlan(plan, "lake.web." + plan, score, NOW.minusSeconds(60), NOW.minusSeconds(59), reason,
                reason == null ? null : "because " + reason, retryAfter, NOW.minusSeconds(30), "native", null);
    }
}
