package dev.cryo.bench.domain;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueryLatenciesTest {

    @Test
    void onlyQueriesThatRanDuringAWindowCountIncludingTheOnesThatStraddleItsEnds() {
        QuerySample before = new QuerySample("count", 0, 900, null);
        QuerySample straddlesStart = new QuerySample("count", 900, 1_100, null);
        QuerySample inside = new QuerySample("top", 1_200, 1_500, null);
        QuerySample straddlesEnd = new QuerySample("top", 1_900, 2_300, null);
        QuerySample between = new QuerySample("count", 2_500, 2_900, null);
        QuerySample inSecondWindow = new QuerySample("count", 5_000, 5_200, "Query failed: table changed");

        QueryLatencies during = QueryLatencies.during(
                List.of(before, straddlesStart, inside, straddlesEnd, between, inSecondWindow),
                List.of(new TimeWindow(1_000, 2_000), new TimeWindow(4_000, 6_000)));

        assertThat(during.samples()).containsExactly(straddlesStart, inside, straddlesEnd, inSecondWindow);
        assertThat(during.count()).isEqualTo(4);
        assertThat(during.failures()).isEqualTo(1);
        // the failed query has no latency: 0.2, 0.3, 0.4 s answered
        assertThat(during.answeredSeconds()).containsExactly(0.2, 0.3, 0.4);
        assertThat(during.percentileSeconds(50)).isEqualTo(0.3);
        assertThat(during.percentileSeconds(95)).isEqualTo(0.4);
    }

    @Test
    void theIdleBaselineOfOneLoopIsEveryQueryThatTouchesNoWindow() {
        QuerySample before = new QuerySample("count", 0, 900, null);
        QuerySample straddlesStart = new QuerySample("count", 900, 1_100, null);
        QuerySample between = new QuerySample("count", 2_500, 2_900, null);
        QuerySample touchesSecondWindow = new QuerySample("top", 3_800, 4_000, null);
        QuerySample after = new QuerySample("top", 6_001, 6_400, null);
        List<TimeWindow> maintenance = List.of(new TimeWindow(1_000, 2_000), new TimeWindow(4_000, 6_000));

        QueryLatencies idle = QueryLatencies.outside(
                List.of(before, straddlesStart, between, touchesSecondWindow, after), maintenance);

        assertThat(idle.samples()).containsExactly(before, between, after);
        assertThat(QueryLatencies.outside(idle.samples(), List.of()).count()).isEqualTo(3);
    }

    @Test
    void theIdleBaselineKeepsEverySampleAndNoAnswerHasNoPercentile() {
        QueryLatencies idle = QueryLatencies.of(List.of(new QuerySample("count", 0, 1_000, null),
                new QuerySample("top", 1_000, 1_500, null)));
        QueryLatencies allFailed = QueryLatencies.of(List.of(new QuerySample("count", 0, 10, "connection refused")));

        assertThat(idle.percentileSeconds(95)).isEqualTo(1.0);
        assertThat(idle.percentileSeconds(50)).isEqualTo(0.5);
        assertThat(idle.failures()).isZero();
        assertThat(allFailed.percentileSeconds(95)).isNaN();
        assertThat(allFailed.failures()).isEqualTo(1);
        assertThat(QueryLatencies.during(idle.samples(), List.of()).count()).isZero();
    }

    @Test
    void aSampleOrWindowThatEndsBeforeItStartsIsRefused() {
        assertThatThrownBy(() -> new QuerySample("count", 10, 5, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot record query count: it ends (5) before it starts (10)");
        assertThatThrownBy(() -> new TimeWindow(10, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot make a window that ends (5) before it starts (10)");
        assertThat(new TimeWindow(1_000, 3_500).seconds()).isEqualTo(2.5);
    }
}
