package dev.cryo.scorer.domain;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.GradeChanged;
import dev.cryo.contracts.event.TableGraded;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GradeTransitionTest {

    private static final TableId TABLE = TableId.parse("lake.analytics.events");
    private static final Instant SCANNED = Instant.parse("2026-11-30T10:00:00Z");
    private static final List<Operation> FIXES = List.of(Operation.EXPIRE_SNAPSHOTS);

    @Test
    void theFirstGradeIsAChange() {
        GradeTransition transition = GradeTransition.of(Optional.empty(), graded(92, Grade.A), SCANNED, FIXES);

        assertThat(transition.effect()).isEqualTo(GradeTransition.Effect.REPLACES_CURRENT);
        assertThat(transition.change()).contains(new GradeChanged(TABLE, null, null, Grade.A, 92, 7L,
                SCANNED.plusSeconds(1), FIXES));
    }

    @Test
    void aNewScoreInTheSameBandReplacesTheGradeSilently() {
        GradeTransition transition = GradeTransition.of(current(100, Grade.A), graded(92, Grade.A), SCANNED, FIXES);

        assertThat(transition.effect()).isEqualTo(GradeTransition.Effect.REPLACES_CURRENT);
        assertThat(transition.change()).isEmpty();
    }

    @Test
    void anotherBandIsAChangeWithThePreviousGrade() {
        GradeTransition transition = GradeTransition.of(current(92, Grade.A), graded(60, Grade.C), SCANNED, FIXES);

        assertThat(transition.change().orElseThrow().previousGrade()).isEqualTo(Grade.A);
        assertThat(transition.change().orElseThrow().previousScore()).isEqualTo(92);
        assertThat(transition.change().orElseThrow().grade()).isEqualTo(Grade.C);
    }

    @Test
    void anOlderScanGoesIntoTheHistoryOnly() {
        GradeTransition transition = GradeTransition.of(current(92, Grade.A), graded(40, Grade.D),
                SCANNED.minusSeconds(3600), FIXES);

        assertThat(transition.effect()).isEqualTo(GradeTransition.Effect.HISTORY_ONLY);
        assertThat(transition.change()).isEmpty();
        assertThatThrownBy(() -> new GradeTransition(GradeTransition.Effect.HISTORY_ONLY,
                GradeTransition.of(Optional.empty(), graded(40, Grade.D), SCANNED, FIXES).change()))
                .hasMessage("a grading that does not become current cannot change the grade");
    }

    private static Optional<CurrentGrade> current(int score, Grade grade) {
        return Optional.of(new CurrentGrade("previous-scan", SCANNED.minusSeconds(60), score, grade));
    }

    private static TableGraded graded(int score, Grade grade) {
        return new TableGraded(TABLE, "scan-1", 7L, SCANNED.plusSeconds(1), score, grade, 1, List.of(), List.of());
    }
}
