package dev.cryo.governor.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PriorityTest {

    private static final Instant T = Instant.parse("2026-06-15T12:00:00Z");

    @Test
    void theWorstScoreGoesFirstThenTheOldestThenTheFirstArrived() {
        PlanCandidate healthyOld = Plans.candidate("healthy-old", 80, T.minusSeconds(3600), 1);
        PlanCandidate worst = Plans.candidate("worst", 10, T, 9);
        PlanCandidate badNew = Plans.candidate("bad-new", 40, T, 2);
        PlanCandidate badOld = Plans.candidate("bad-old", 40, T.minusSeconds(60), 8);
        PlanCandidate badOldLater = Plans.candidate("bad-old-later", 40, T.minusSeconds(60), 12);

        assertThat(Priority.order(List.of(healthyOld, badNew, badOldLater, worst, badOld)))
                .extracting(PlanCandidate::planId)
                .containsExactly("worst", "bad-old", "bad-old-later", "bad-new", "healthy-old");
    }
}
