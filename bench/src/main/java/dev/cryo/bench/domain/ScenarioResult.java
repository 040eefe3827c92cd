package dev.cryo.bench.domain;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * What one scenario measured.
 *
 * @param id the scenario number of PROTOCOL.md
 * @param title its title
 * @param status {@code scored}, {@code not run: <why>} or {@code failed: <why>}
 * @param sizes the sizes it ran at
 * @param metrics the measured values, per contender and trial
 * @param ratios comparisons Cryo ÷ contender (or speedups), per trial
 * @param targets the targets and their verdicts
 * @param series curves for the plots
 * @param fingerprintFailures lost or changed rows found (each fails the run)
 * @param notes what a reader must know to read the numbers
 */
public record ScenarioResult(int id, String title, String status, Map<String, String> sizes, List<Metric> metrics,
                             List<Metric> ratios, List<Target> targets, List<Series> series,
                             List<String> fingerprintFailures, List<String> notes) {

    public static final String SCORED = "scored";

    public ScenarioResult {
        requireNonNull(title, "title is null");
        requireNonNull(status, "status is null");
        sizes = Map.copyOf(requireNonNull(sizes, "sizes is null"));
        metrics = List.copyOf(requireNonNull(metrics, "metrics is null"));
        ratios = List.copyOf(requireNonNull(ratios, "ratios is null"));
        targets = List.copyOf(requireNonNull(targets, "targets is null"));
        series = List.copyOf(requireNonNull(series, "series is null"));
        fingerprintFailures = List.copyOf(requireNonNull(fingerprintFailures, "fingerprintFailures is null"));
        notes = List.copyOf(requireNonNull(notes, "notes is null"));
    }

    public static ScenarioResult notRun(int id, String title, String why) {
        return new ScenarioResult(id, title, "not run: " + why, Map.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of());
    }

    public static ScenarioResult failed(int id, String title, String why, List<String> notes) {
        return new ScenarioResult(id, title, "failed: " + why, Map.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), notes);
    }

    public boolean isFailed() {
        return status.startsWith("failed");
    }
}
