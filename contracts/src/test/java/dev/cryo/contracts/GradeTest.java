package dev.cryo.contracts;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GradeTest {

    @ParameterizedTest
    @CsvSource({"100,A", "90,A", "89,B", "75,B", "74,C", "60,C", "59,D", "40,D", "39,F", "0,F"})
    void bandsFollowScoring(int score, Grade expected) {
        assertThat(Grade.of(score)).isEqualTo(expected);
    }

    @Test
    void rejectsScoresOutsideTheRange() {
        assertThatThrownBy(() -> Grade.of(101)).hasMessage("Cannot grade score 101: expected 0..100");
        assertThatThrownBy(() -> Grade.of(-1)).hasMessage("Cannot grade score -1: expected 0..100");
    }

    @Test
    void comparesGrades() {
        assertThat(Grade.A.isBetterThan(Grade.B)).isTrue();
        assertThat(Grade.F.isBetterThan(Grade.D)).isFalse();
    }

    @Test
    void severitiesCostTheirPoints() {
        assertThat(Severity.CRITICAL.points()).isEqualTo(20);
        assertThat(Severity.WARNING.points()).isEqualTo(8);
    }
}
