package dev.cryo.console.domain;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionLabelsTest {

    @Test
    void internalValuesReadAsPeopleWriteThem() {
        assertThat(PartitionLabels.label("day", "20786")).isEqualTo("2026-11-29");
        assertThat(PartitionLabels.label("hour", "498874")).isEqualTo("2026-11-29 10:00");
        assertThat(PartitionLabels.label("month", "683")).isEqualTo("2026-12");
        assertThat(PartitionLabels.label("year", "56")).isEqualTo("2026");
        assertThat(PartitionLabels.label("day", "-1")).isEqualTo("1969-12-31");
        assertThat(PartitionLabels.label("bucket[16]", "3")).isEqualTo("bucket 3 of 16");
        assertThat(PartitionLabels.label("identity", "EU")).isEqualTo("EU");
        assertThat(PartitionLabels.label("truncate[4]", "abcd")).isEqualTo("abcd");
        assertThat(PartitionLabels.label("day", null)).isEqualTo("null");
    }

    @Test
    void aValueThatIsNotTheNumberItsTransformPromisesIsShownAsSent() {
        assertThat(PartitionLabels.label("day", "2026-11-29")).isEqualTo("2026-11-29");
        assertThat(PartitionLabels.label("hour", "soon")).isEqualTo("soon");
    }

    @Test
    void numbersSortByValueNullsFirstThenText() {
        List<String> values = new ArrayList<>(Arrays.asList("10", "b", null, "9", "-3", "a"));
        values.sort(PartitionLabels::compare);
        assertThat(values).containsExactly(null, "-3", "9", "10", "a", "b");
    }
}
