package dev.cryo.bench.report;

import dev.cryo.bench.domain.JobScoreTally;
import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.RunResult;
import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.domain.Series;
import dev.cryo.bench.domain.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReportWriterTest {

    private static RunResult run() {
        ScenarioResult fleet = new ScenarioResult(1, "mixed fleet", ScenarioResult.SCORED, Map.of("fleet.cycles", "4"),
                List.of(new Metric("rewritten partitions", "", "cryo", List.of(4.0, 5.0, 6.0)),
                        new Metric("rewritten partitions", "", "dag", List.of(12.0, 12.0, 13.0))),
                List.of(new Metric("rewritten partitions cryo ÷ dag", "", "cryo/dag", List.of(0.33, 0.42, 0.46))),
                List.of(Target.atMost("zero rewrites of healthy or quiet tables (Cryo)", List.of(0.0, 0.0, 0.0), 0, ""),
                        Target.atMost("graded p95 ≤ 2 s", List.of(1.5, 2.5, 1.9), 2.0, " s")),
                List.of(new Series("delete files over time", "cryo", "seconds", "delete files", List.of(0.0, 5.0),
                        List.of(3.0, 1.0))),
                List.of(), List.of("a note"));
        return new RunResult(1, "full", 3, Instant.parse("2026-01-01T10:00:00Z"), Instant.parse("2026-01-01T10:30:00Z"),
                Map.of("nproc", "2", "memory", "23.4 GiB", "cpu model", "Example CPU"), Map.of("iceberg", "1.10.1"),
                List.of(fleet, ScenarioResult.notRun(4, "user impact", "Trino is not started; start with --with trino")));
    }

    @Test
    void theReportStatesMachineVersionsIntervalsVerdictsAndWhatDidNotRun() {
        String report = ReportWriter.render(run());

        assertThat(report).contains("| nproc | 2 |", "| cpu model | Example CPU |", "| iceberg | 1.10.1 |");
        assertThat(report).contains("| rewritten partitions | cryo | 4, 5, 6 | 5 [2.52, 7.48] |");
        assertThat(report).contains("| graded p95 ≤ 2 s | every trial | ❌ missed in 1 of 3 trials: worst 2.50 s > 2 s "
                + "(by 0.50 s, 25.0 %) |");
        assertThat(report).contains("| zero rewrites of healthy or quiet tables (Cryo) | every trial | ✅ met in all 3 "
                + "trials: worst 0 ≤ 0 |");
        assertThat(report).contains("Each target is judged by the rule beside it (PROTOCOL.md, Verdicts)");
        assertThat(report).contains("| 4 | user impact | not run: Trino is not started; start with --with trino | 0 | 0 |");
        assertThat(report).contains("1800 s in all");
    }

    @Test
    void theReportListsEverySizeThatDiffersFromTheProtocol() {
        ScenarioResult fleet = new ScenarioResult(1, "mixed fleet", ScenarioResult.SCORED,
                Map.of("fleet.cycles", "4", "fleet.per-class", "1", "target-file-size-bytes", "1048576"),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
        RunResult run = new RunResult(1, "full", 3, Instant.parse("2026-01-01T10:00:00Z"),
                Instant.parse("2026-01-01T10:30:00Z"), Map.of(), Map.of(), List.of(fleet));

        String report = ReportWriter.render(run);

        assertThat(report).contains("### Deviations from PROTOCOL.md",
                "- fleet.per-class = 1 instead of PROTOCOL.md's full value 2",
                "- target-file-size-bytes (T) = 1048576 instead of PROTOCOL.md's 8388608 (8 MiB)");
        assertThat(report).doesNotContain("fleet.cycles = 4 instead");
    }

    @Test
    void writingTheReportDrawsThePlotsAsPngFiles(@TempDir Path bench) throws IOException {
        Path report = new ReportWriter(bench).write(List.of(run()));

        String text = Files.readString(report);
        assertThat(text).contains("![scenario 1](report/full-s1-0.png)", "![scenario 1](report/full-s1-delete-files-over-time.png)");
        byte[] png = Files.readAllBytes(bench.resolve("report/full-s1-0.png"));
        assertThat(png).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
        assertThat(bench.resolve("report/full-s1-delete-files-over-time.png")).isNotEmptyFile();
    }

    @Test
    void cryosJobScoresShowPerScenarioWithVerdictsTheRuleAndWhyJobsFellShortAndAnOlderResultSaysNotMeasured() {
        ScenarioResult fleet = new ScenarioResult(1, "mixed fleet", ScenarioResult.SCORED, Map.of(), List.of(), List.of(),
                List.of(), List.of(), List.of(), List.of()).withJobScores(List.of(
                new JobScoreTally(12, 10, 1, 1, 0, 0, List.of("b1_s1_t0_cryo.fragmenting_0 (j7): score 40 → 70 (C), "
                        + "expected 85: 15 points short"), List.of("b1_s1_t0_cryo.quiet_0 (j9): no-op: expire_snapshots "
                        + "changed nothing")),
                new JobScoreTally(9, 8, 0, 0, 0, 1, List.of(), List.of())));
        ScenarioResult scale = new ScenarioResult(6, "control-plane scale", ScenarioResult.SCORED, Map.of(), List.of(),
                List.of(), List.of(), List.of(), List.of(), List.of()).withJobScores(List.of(JobScoreTally.pooled(List.of())));
        ScenarioResult older = new ScenarioResult(7, "metadata scan", ScenarioResult.SCORED, Map.of(), List.of(),
                List.of(), List.of(), List.of(), List.of(), List.of());
        RunResult run = new RunResult(4, "full", 2, Instant.parse("2026-01-01T10:00:00Z"),
                Instant.parse("2026-01-01T10:30:00Z"), Map.of(), Map.of(), List.of(fleet, scale, older));

        String report = ReportWriter.render(run);

        assertThat(report).contains("### Cryo's jobs against their plans' expected scores",
                "Share reached = reached ÷ (reached + short), all trials pooled; no-op, ungraded and unscored jobs are "
                        + "outside the share and counted beside it. Targets, over the whole run: share reached ≥ 95 %, "
                        + "zero no-op jobs.",
                "within 90 s of the scenario's last job end",
                "| # | scenario | jobs | reached | short | no-op | ungraded | unscored | share reached | ≥ 95 % reached "
                        + "| zero no-op jobs |",
                "| 1 | mixed fleet | 21 | 18 | 1 | 1 | 0 | 1 | 94.7 % | ❌ missed by 0.26 % (0.3 %): 94.7 % < 95 % "
                        + "(18 of 19) | ❌ missed by 1 jobs: 1 jobs > 0 jobs |",
                "| 6 | control-plane scale | 0 | 0 | 0 | 0 | 0 | 0 | n/a | — not evaluated: Cryo ran no job "
                        + "| — not evaluated: Cryo ran no job |",
                "| 7 | metadata scan | not measured in this run | — | — | — | — | — | — | — | — |",
                "| 1 | mixed fleet | scored | 0 | 2 |",
                "| " + JobScoreTally.SHARE_TARGET + " | the whole run | ❌ missed by 0.26 % (0.3 %): 94.7 % < 95 % (18 of 19) |",
                "| jobs that reached the expected score (jobs) | cryo | 10, 8 | 9 [-3.71, 21.7] |",
                "Cryo's jobs short of their expected score (all 1):\n\n- b1_s1_t0_cryo.fragmenting_0 (j7): score 40 → 70 "
                        + "(C), expected 85: 15 points short\n",
                "Cryo's no-op jobs (all 1):\n\n- b1_s1_t0_cryo.quiet_0 (j9): no-op: expire_snapshots changed nothing\n");
        // Cryo ran no job in scenario 6: no targets about its jobs
        assertThat(report).contains("| 6 | control-plane scale | scored | 0 | 0 |");
    }

    @Test
    void bothEnginesOfAScenarioShowAsContendersAndAVariantThatDidNotRunSaysSo() {
        ScenarioResult withTrino = new ScenarioResult(2, "fragmented", ScenarioResult.SCORED, Map.of(),
                List.of(new Metric("data files after", "files", "cryo", List.of(8.0)),
                        new Metric("data files after", "files", "hand-run", List.of(8.0)),
                        new Metric("data files after", "files", "cryo (trino)", List.of(4.0)),
                        new Metric("data files after", "files", "hand-run (trino)", List.of(4.0))),
                List.of(), List.of(Target.reported("query-mix geometric-mean speedup on Trino, cryo (trino)'s copy",
                dev.cryo.bench.domain.Statistics.geometricMean(List.of(2.5)), "×")), List.of(), List.of(), List.of());
        ScenarioResult withoutTrino = new ScenarioResult(3, "live CDC", ScenarioResult.SCORED
                + "; Trino variant not run: start with --with trino", Map.of(), List.of(), List.of(),
                List.of(Target.notEvaluated(Target.Rule.EVERY_TRIAL, "100 % of Cryo's jobs commit (Trino)",
                        "not run: start with --with trino")),
                List.of(), List.of(), List.of());
        RunResult run = new RunResult(3, "quick", 1, Instant.parse("2026-01-01T10:00:00Z"),
                Instant.parse("2026-01-01T10:05:00Z"), Map.of(), Map.of(), List.of(withTrino, withoutTrino));

        String report = ReportWriter.render(run);

        assertThat(report).contains("| data files after (files) | cryo (trino) | 4 | 4 (n=1, no CI) |",
                "| data files after (files) | hand-run (trino) | 4 | 4 (n=1, no CI) |",
                "| query-mix geometric-mean speedup on Trino, cryo (trino)'s copy | reported with its interval | ✅ reported: "
                        + "2.50× (n=1, no CI) |",
                "| 3 | live CDC | scored; Trino variant not run: start with --with trino | 0 | 0 |",
                "| 100 % of Cryo's jobs commit (Trino) | every trial | — not evaluated: not run: start with --with trino |");
    }
}
