package dev.cryo.planner.domain;

import dev.cryo.planner.domain.Supersession.PriorPlan;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SupersessionTest {

    private static final Instant T1 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Instant T2 = T1.plusSeconds(60);

    @Test
    void theFirstPlanOfATableSupersedesNothing() {
        assertThat(Supersession.supersededPlan(List.of())).isEmpty();
    }

    @Test
    void aNewPlanSupersedesTheNewestPlanThatIsStillPlanned() {
        List<PriorPlan> history = List.of(
                new PriorPlan("old", T1, PlanStatus.SUPERSEDED),
                new PriorPlan("current", T2, PlanStatus.PLANNED));

        assertThat(Supersession.supersededPlan(history)).contains("current");
        assertThat(Supersession.supersededPlan(List.of(history.get(1), history.get(0)))).contains("current");
    }

    @Test
    void aStartedPlanIsStillNamedTheGovernorDecidesWhetherItRunsOn() {
        assertThat(Supersession.supersededPlan(List.of(new PriorPlan("running", T2, PlanStatus.STARTED))))
                .contains("running");
    }

    @Test
    void aFinishedPlanIsHistoryAndIsNotSuperseded() {
        assertThat(Supersession.supersededPlan(List.of(
                new PriorPlan("old", T1, PlanStatus.SUPERSEDED),
                new PriorPlan("done", T2, PlanStatus.FINISHED)))).isEmpty();
    }

    @Test
    void plansOfTheSameInstantAreOrderedByIdSoTheAnswerIsStable() {
        assertThat(Supersession.supersededPlan(List.of(
                new PriorPlan("b", T1, PlanStatus.PLANNED),
                new PriorPlan("a", T1, PlanStatus.PLANNED)))).contains("b");
    }
}
