package dev.cryo.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryo.bench.domain.JobScoreTally;
import dev.cryo.bench.domain.RunResult;
import dev.cryo.bench.domain.ScenarioResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class BenchMainTest {

    private static void write(Path bench, String file, String startedAt, List<ScenarioResult> scenarios) throws IOException {
        Files.createDirectories(bench.resolve("results"));
        RunResult run = new RunResult(1, "quick", 1, Instant.parse(startedAt), Instant.parse(startedAt).plusSeconds(60),
                Map.of(), Map.of(), scenarios);
        BenchMain.mapper().writeValue(bench.resolve("results").resolve(file).toFile(), run);
    }

    private static ScenarioResult scenario(int id, String status) {
        return new ScenarioResult(id, "scenario " + id, status, Map.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of());
    }

    @Test
    void aRunOfOneScenarioKeepsTheOtherScenariosOfTheEarlierRunInTheReport(@TempDir Path bench) throws IOException {
        write(bench, "20260101T100000Z-quick.json", "2026-01-01T10:00:00Z",
                List.of(scenario(1, "scored"), scenario(7, "old seven")));
        write(bench, "20260101T110000Z-quick.json", "2026-01-01T11:00:00Z", List.of(scenario(7, "new seven")));

        String report = Files.readString(BenchMain.writeReport(bench));

        assertThat(report).contains("## Quick run (--quick, not scored): 2026-01-01T11:00:00Z",
                "| 1 | scenario 1 | scored | 0 | 0 |", "| 7 | scenario 7 | new seven | 0 | 0 |",
                "- From the earlier quick run 20260101T100000Z-quick.json (protocol 1, started 2026-01-01T10:00:00Z, 1 trial(s)): "
                        + "the newest quick run did not include this scenario.");
        assertThat(report).doesNotContain("old seven");
        assertThat(report.indexOf("quick · scenario 1")).isLessThan(report.indexOf("quick · scenario 7"));
    }

    @Test
    void jobScoresSurviveTheResultsJsonAndAResultWrittenBeforeThemIsReportedAsNotMeasured(@TempDir Path bench)
            throws IOException {
        JobScoreTally tally = new JobScoreTally(4, 3, 1, 0, 0, 0, List.of("b1_s2_t0_cryo.streamed (j1): 5 points short"),
                List.of());
        write(bench, "20260101T100000Z-quick.json", "2026-01-01T10:00:00Z",
                List.of(scenario(1, "scored"), scenario(2, "scored").withJobScores(List.of(tally))));
        // protocol 3's results have no jobScores at all
        Path file = bench.resolve("results/20260101T100000Z-quick.json");
        ObjectNode json = (ObjectNode) BenchMain.mapper().readTree(file.toFile());
        ((ObjectNode) json.get("scenarios").get(0)).remove("jobScores");
        BenchMain.mapper().writeValue(file.toFile(), json);

        RunResult read = BenchMain.mapper().readValue(file.toFile(), RunResult.class);
        String report = Files.readString(BenchMain.writeReport(bench));

        assertThat(read.scenarios().get(0).jobScores()).isNull();
        assertThat(read.scenarios().get(1).jobScores()).isEqualTo(tally);
        assertThat(report).contains("| 1 | scenario 1 | not measured in this run | — |",
                "| 2 | scenario 2 | 4 | 3 | 1 | 0 | 0 | 0 | 75.0 % | ❌ missed by 20 % (21.1 %): 75 % < 95 % (3 of 4) |");
    }

    @Test
    void anEarlierRunsScenarioKeepsItsJobScores(@TempDir Path bench) throws IOException {
        JobScoreTally tally = new JobScoreTally(2, 2, 0, 0, 0, 0, List.of(), List.of());
        write(bench, "20260101T100000Z-quick.json", "2026-01-01T10:00:00Z",
                List.of(scenario(5, "scored").withJobScores(List.of(tally))));
        write(bench, "20260101T110000Z-quick.json", "2026-01-01T11:00:00Z", List.of(scenario(7, "scored")));

        String report = Files.readString(BenchMain.writeReport(bench));

        assertThat(report).contains("| 5 | scenario 5 | 2 | 2 | 0 | 0 | 0 | 0 | 100.0 % | ✅ met: 100 % ≥ 95 % (2 of 2) |");
    }
}
