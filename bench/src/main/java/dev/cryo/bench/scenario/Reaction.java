package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.domain.Series;
import dev.cryo.bench.domain.Statistics;
import dev.cryo.bench.domain.Target;
import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.Settle;
import dev.cryo.bench.harness.Workload;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import org.apache.iceberg.Table;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Scenario 5: commit → graded and commit → admitted latency through the commit reporter. */
public final class Reaction implements Scenario {

    private static final int FILES_BELOW_THRESHOLD = 7;
    private static final Duration EVENT_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration ADMISSION_TIMEOUT = Duration.ofSeconds(60);

    @Override
    public int id() {
        return 5;
    }

    @Override
    public String title() {
        return "reaction: commit → graded, commit → admitted (native)";
    }

    @Override
    public ScenarioResult run(BenchContext context) {
        int tables = context.sizes().integer("react.tables");
        long target = context.sizes().longValue("target-file-size-bytes");
        List<Double> gradedP50 = new ArrayList<>();
        List<Double> gradedP95 = new ArrayList<>();
        List<Double> admittedP50 = new ArrayList<>();
        List<Double> admittedP95 = new ArrayList<>();
        List<Double> missed = new ArrayList<>();
        List<Series> series = new ArrayList<>();
        List<String> fingerprintFailures = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (int trial = 0; trial < context.trials(); trial++) {
            String namespace = context.namespace(id(), trial, "cryo");
            context.lakehouse().createNamespace(namespace);
            context.api().policy(context.pattern(namespace), Duration.ofSeconds(5));
            List<Double> graded = new ArrayList<>();
            List<Double> admitted = new ArrayList<>();
            int missedAdmissions = 0;
            for (int t = 0; t < tables; t++) {
                String name = "react_" + t;
                Table table = context.lakehouse().create(namespace, name, target, true);
                Workload workload = new Workload(table, BenchContext.seed(trial, t));
                TableId id = context.lakehouse().id(namespace, name);
                for (int commit = 1; commit <= FILES_BELOW_THRESHOLD + 1; commit++) {
                    workload.append(0, 50);
                    table.refresh();
                    long snapshotId = table.currentSnapshot().snapshotId();
                    long committedAt = table.currentSnapshot().timestampMillis();
                    TableGraded grade = await(() -> context.tap().events(TableGraded.class,
                            event -> event.table().equals(id) && Long.valueOf(snapshotId).equals(event.snapshotId()))
                            .stream().findFirst(), "the grade of " + id + " at snapshot " + snapshotId);
                    graded.add((grade.gradedAt().toEpochMilli() - committedAt) / 1000.0);
                    if (commit == FILES_BELOW_THRESHOLD + 1) {
                        Fingerprint before = workload.actual();
                        Optional<JobAdmitted> admission = awaitOptional(() -> context.tap().events(JobAdmitted.class,
                                event -> event.table().equals(id) && event.plan().snapshotId() != null
                                        && event.plan().snapshotId() == snapshotId).stream().findFirst(), ADMISSION_TIMEOUT);
                        if (admission.isEmpty()) {
                            // Cryo did not react: a failure of Cryo to report, not of the harness
                            missedAdmissions++;
                            notes.add("trial " + (trial + 1) + " " + name + ": no job admitted within " + ADMISSION_TIMEOUT
                                    + " of the commit that made it fragmented (graded " + grade.grade() + ")");
                            continue;
                        }
                        JobAdmitted job = admission.get();
                        admitted.add((job.admittedAt().toEpochMilli() - committedAt) / 1000.0);
                        JobFinished finished = await(() -> context.tap().events(JobFinished.class,
                                event -> event.jobId().equals(job.jobId())).stream().findFirst(),
                                "the end of job " + job.jobId());
                        notes.add("trial " + (trial + 1) + " " + name + ": job " + finished.outcome());
                        Fingerprint after = workload.actual();
                        if (!before.equals(after) || !after.equals(workload.expected())) {
                            fingerprintFailures.add("trial " + (trial + 1) + " " + id + ": " + before + " before the job, "
                                    + after + " after, expected " + workload.expected());
                        }
                    }
                }
            }
            context.api().deletePolicy(context.pattern(namespace));
            gradedP50.add(Statistics.percentile(graded, 50));
            gradedP95.add(Statistics.percentile(graded, 95));
            // a commit that got no admission counts as an infinitely late one: the percentiles say so
            for (int late = 0; late < missedAdmissions; late++) {
                admitted.add(Double.POSITIVE_INFINITY);
            }
            missed.add((double) missedAdmissions);
            admittedP50.add(finite(Statistics.percentile(admitted, 50)));
            admittedP95.add(finite(Statistics.percentile(admitted, 95)));
            series.add(samples("commit to graded", "trial " + (trial + 1), graded));
            series.add(samples("commit to admitted", "trial " + (trial + 1),
                    admitted.stream().filter(Double::isFinite).toList()));
        }
        List<Metric> metrics = List.of(
                new Metric("commit → graded p50", "s", "cryo", gradedP50),
                new Metric("commit → graded p95", "s", "cryo", gradedP95),
                new Metric("commit → admitted p50", "s", "cryo", admittedP50),
                new Metric("commit → admitted p95", "s", "cryo", admittedP95),
                new Metric("fragmenting commits with no admission within 60 s", "", "cryo", missed));
        List<Target> targets = List.of(
                Target.atMost("graded p95 ≤ 2 s", gradedP95, 2.0, " s"),
                Target.atMost("admitted p95 ≤ 5 s with a free engine", admittedP95, 5.0, " s"));
        notes.add("A fragmenting commit that got no admission within 60 s counts as infinitely late; a percentile that "
                + "falls on one is reported as 60 s (a lower bound), and the count is reported.");
        notes.add("Latency from the snapshot's timestamp-ms (the commit) to gradedAt of the TableGraded of that snapshot, and "
                + "to admittedAt of the JobAdmitted whose plan names it; one machine, one clock.");
        return new ScenarioResult(id(), title(), ScenarioResult.SCORED, context.sizes().withPrefix("react."), metrics,
                List.of(), targets, series, fingerprintFailures, notes);
    }

    private static Series samples(String chart, String name, List<Double> latencies) {
        List<Double> x = new ArrayList<>();
        for (int i = 0; i < latencies.size(); i++) {
            x.add((double) (i + 1));
        }
        return new Series(chart, name, "commit", "seconds", x, latencies);
    }

    /** A percentile that fell on a missing admission is reported as the admission timeout, a lower bound. */
    private static double finite(double value) {
        return Double.isInfinite(value) ? ADMISSION_TIMEOUT.toSeconds() : value;
    }

    static <T> Optional<T> awaitOptional(java.util.function.Supplier<Optional<T>> probe, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<T> found = probe.get();
            if (found.isPresent()) {
                return found;
            }
            Settle.sleep(Duration.ofMillis(100));
        }
        return Optional.empty();
    }

    static <T> T await(java.util.function.Supplier<Optional<T>> probe, String what) {
        long deadline = System.nanoTime() + EVENT_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<T> found = probe.get();
            if (found.isPresent()) {
                return found.get();
            }
            Settle.sleep(Duration.ofMillis(100));
        }
        throw new IllegalStateException("Cannot see " + what + " within " + EVENT_TIMEOUT);
    }
}
