package dev.cryo.bench;

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
}
