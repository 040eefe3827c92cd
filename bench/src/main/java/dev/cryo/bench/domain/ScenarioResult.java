package dev.cryo.bench.domain;

import java.util.ArrayList;
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
 * @param jobScores how Cryo's jobs on the scenario's tables kept their plans' promises, all trials pooled;
 *                  null when not measured (results of runs before protocol 4)
 */
public record ScenarioResult(int id, String title, String status, Map<String, String> sizes, List<Metric> metrics,
                             List<Metric> ratios, List<Target> targets, List<Series> series,
                             List<String> fingerprintFailures, List<String> notes, JobScoreTally jobScores) {

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

    /** A scenario's own result: the harness adds the job scores ({@link #withJobScores}). */
    public ScenarioResult(int id, String title, String status, Map<String, String> sizes, List<Metric> metrics,
                          List<Metric> ratios, List<Target> targets, List<Series> series,
                          List<String> fingerprintFailures, List<String> notes) {
        this(id, title, status, sizes, metrics, ratios, targets, series, fingerprintFailures, notes, null);
    }

    public static ScenarioResult notRun(int id, String title, String why) {
        return new ScenarioResult(id, title, "not run: " + why, Map.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of());
    }

    public static ScenarioResult failed(int id, String title, String why, List<String> notes) {
        return new ScenarioResult(id, title, "failed: " + why, Map.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), notes);
    }

    /**
     * This result with the tallies of Cryo's jobs per trial: their pooled tally, and when Cryo ran a job, the
     * per-trial counts as metrics and the two targets over the pooled tally (a scenario in which Cryo runs no job
     * gets no targets about them).
     */
    public ScenarioResult withJobScores(List<JobScoreTally> perTrial) {
        JobScoreTally pooled = JobScoreTally.pooled(perTrial);
        if (pooled.jobs() == 0) {
            return new ScenarioResult(id, title, status, sizes, metrics, ratios, targets, series, fingerprintFailures,
                    notes, pooled);
        }
        List<Metric> withCounts = new ArrayList<>(metrics);
        withCounts.addAll(JobScoreTally.metrics(perTrial));
        List<Target> withTargets = new ArrayList<>(targets);
        withTargets.addAll(pooled.targets());
        return new ScenarioResult(id, title, status, sizes, withCounts, ratios, withTargets, series, fingerprintFailures,
                notes, pooled);
    }

    public boolean isFailed() {
        return status.startsWith("failed");
    }
}
