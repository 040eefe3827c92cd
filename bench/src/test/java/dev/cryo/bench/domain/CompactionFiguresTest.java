package dev.cryo.bench.domain;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class CompactionFiguresTest {

    @Test
    void throughputIsInputMegabytesPerWallSecondAndCpuIsPerGibibyte() {
        assertThat(CompactionFigures.throughputMegabytesPerSecond(50_000_000L, 2.0)).isCloseTo(25.0, within(1e-9));
        assertThat(CompactionFigures.cpuSecondsPerGibibyte(30.0, 2L * 1024 * 1024 * 1024)).isCloseTo(15.0, within(1e-9));
    }

    @Test
    void figuresRefuseAnEmptyMeasurement() {
        assertThatThrownBy(() -> CompactionFigures.throughputMegabytesPerSecond(1, 0))
                .hasMessage("Cannot give a throughput: the wall time is 0.0 s");
        assertThatThrownBy(() -> CompactionFigures.cpuSecondsPerGibibyte(1, 0))
                .hasMessage("Cannot give CPU per GiB: the input has 0 bytes");
    }

    @Test
    void everyTrialMustMeetEachTargetSoTheWorstTrialDecides() {
        // means 1.05 (met on the mean), 1.45 (met on the mean), 750 MiB (met on the mean): each has one bad trial
        List<Target> targets = CompactionFigures.targets(List.of(1.2, 0.9), "", List.of(1.2, 1.7), "",
                List.of(400.0, 1100.0));

        assertThat(targets).extracting(Target::verdict).containsExactly(Target.Verdict.MISSED, Target.Verdict.MISSED,
                Target.Verdict.MISSED);
        assertThat(targets).extracting(Target::rule).containsOnly(Target.Rule.EVERY_TRIAL);
        assertThat(targets.get(0).measured()).isEqualTo(0.9);
        assertThat(targets.get(1).measured()).isEqualTo(1.7);
        assertThat(targets.get(2).measured()).isEqualTo(1100.0);
        assertThat(targets.get(0).detail()).isEqualTo("missed in 1 of 2 trials: worst 0.90× < 1× (by 0.10×, 10.0 %)");
    }

    @Test
    void aMissingEngineLeavesItsTargetNotEvaluatedWithTheReason() {
        List<Target> targets = CompactionFigures.targets(List.of(), "not run: start with --with spark", List.of(),
                "not run: start with --with trino", List.of(300.0));

        assertThat(targets).extracting(Target::verdict).containsExactly(Target.Verdict.NOT_EVALUATED,
                Target.Verdict.NOT_EVALUATED, Target.Verdict.MET);
        assertThat(targets.get(0).detail()).isEqualTo("not evaluated: not run: start with --with spark");
        assertThat(targets.get(1).detail()).isEqualTo("not evaluated: not run: start with --with trino");
    }
}
