package dev.cryo.console.domain;

import dev.cryo.contracts.Grade;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class GradeChartTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    @Test
    void scoresAreDrawnOverTimeOnTheGradeBands() {
        // 640 × 200: the plot is x 30..630, y 8..178 (170 high)
        GradeChart chart = GradeChart.of(List.of(
                new GradeChart.Entry(T0.plusSeconds(300), 100, Grade.A),
                new GradeChart.Entry(T0, 0, Grade.F),
                new GradeChart.Entry(T0.plusSeconds(100), 44, Grade.D)), 640, 200);

        assertThat(chart.points()).extracting(GradeChart.Point::score).containsExactly(0, 44, 100);
        assertThat(chart.points().get(0).x()).isEqualTo(30);
        assertThat(chart.points().get(0).y()).isEqualTo(178);
        assertThat(chart.points().get(1).x()).isCloseTo(230, within(0.01));
        assertThat(chart.points().get(1).y()).isCloseTo(8 + 0.56 * 170, within(0.01));
        assertThat(chart.points().get(2).x()).isEqualTo(630);
        assertThat(chart.points().get(2).y()).isEqualTo(8);
        assertThat(chart.polyline()).isEqualTo("30.0,178.0 230.0,103.2 630.0,8.0");
        assertThat(chart.points().get(1).label()).isEqualTo("2026-11-29 10:01:40 UTC: 44 (D)");
        assertThat(chart.firstLabel()).isEqualTo("2026-11-29 10:00:00 UTC");
        assertThat(chart.lastLabel()).isEqualTo("2026-11-29 10:05:00 UTC");
    }

    @Test
    void theBandsCoverTheWholeScaleAtTheGradeBoundaries() {
        GradeChart chart = GradeChart.of(List.of(), 640, 200);

        assertThat(chart.empty()).isTrue();
        assertThat(chart.bands()).extracting(GradeChart.Band::grade).containsExactly(Grade.values());
        assertThat(chart.bands().get(0).top()).isEqualTo(8);
        assertThat(chart.bands().get(0).height()).isCloseTo(0.10 * 170, within(0.001));
        assertThat(chart.bands().get(3).height()).isCloseTo(0.20 * 170, within(0.001));
        GradeChart.Band f = chart.bands().get(4);
        assertThat(f.top() + f.height()).isCloseTo(178, within(0.001));
    }

    @Test
    void gradingsOfOneInstantAreSpreadEvenlyAndASingleOneSitsAtTheEnd() {
        GradeChart same = GradeChart.of(List.of(new GradeChart.Entry(T0, 50, Grade.D),
                new GradeChart.Entry(T0, 60, Grade.C), new GradeChart.Entry(T0, 70, Grade.C)), 640, 200);
        assertThat(same.points()).extracting(GradeChart.Point::x).containsExactly(30.0, 330.0, 630.0);

        GradeChart single = GradeChart.of(List.of(new GradeChart.Entry(T0, 90, Grade.A)), 640, 200);
        assertThat(single.points()).extracting(GradeChart.Point::x).containsExactly(630.0);
    }

    @Test
    void aChartWithoutRoomForItsAxesIsRefused() {
        assertThatThrownBy(() -> GradeChart.of(List.of(), 30, 200))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot draw a grade chart of 30×200: it needs room for its axes");
    }
}
