package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.domain.Series;
import dev.cryo.bench.domain.Statistics;
import dev.cryo.bench.domain.Target;
import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.CryoApi;
import dev.cryo.bench.harness.NativeDag;
import dev.cryo.bench.harness.Settle;
import dev.cryo.bench.harness.TableFacts;
import dev.cryo.bench.harness.Workload;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.iceberg.fingerprint.Fingerprint;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** Scenario 3: a MERGE every interval on a partitioned table while each contender maintains its copy. */
public final class LiveCdc implements Scenario {

    private static final String TABLE = "cdc";

    @Override
    public int id() {
        return 3;
    }

    @Override
    public String title() {
        return "live CDC: MERGE every interval while maintained (native)";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        Duration interval = context.sizes().duration("cdc.interval");
        Duration duration = context.sizes().duration("cdc.duration");
        Duration dagInterval = context.sizes().duration("cdc.dag-interval");
        Duration sampleInterval = context.sizes().duration("cdc.sample-interval");
        int partitions = context.sizes().integer("cdc.partitions");
        int rows = context.sizes().integer("cdc.rows");
        int updates = context.sizes().integer("cdc.updates");
        int inserts = context.sizes().integer("cdc.inserts");
        long target = context.sizes().longValue("target-file-size-bytes");

        List<Double> cryoAttempted = new ArrayList<>();
        List<Double> cryoCommitted = new ArrayList<>();
        List<Double> dagAttempted = new ArrayList<>();
        List<Double> dagCommitted = new ArrayList<>();
        List<Double> cryoCommitShare = new ArrayList<>();
        List<Double> cryoMaxDeletesAfterSecondJob = new ArrayList<>();
        List<Double> cryoMeanDeletes = new ArrayList<>();
        List<Double> dagMeanDeletes = new ArrayList<>();
        List<Double> merges = new ArrayList<>();
        List<Double> finalRows = new ArrayList<>();
        List<Series> series = new ArrayList<>();
        List<String> fingerprintFailures = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (int trial = 0; trial < context.trials(); trial++) {
            String cryoNamespace = context.namespace(id(), trial, "cryo");
            String dagNamespace = context.namespace(id(), trial, "dag");
            context.lakehouse().createNamespace(cryoNamespace);
            context.lakehouse().createNamespace(dagNamespace);
            context.api().pause(context.pattern(dagNamespace), "CryoBench: the scheduled DAG's copy");
            context.api().policy(context.pattern(cryoNamespace), Duration.ofSeconds(5));
            long seed = BenchContext.seed(trial, 0);
            Workload cryo = new Workload(context.lakehouse().create(cryoNamespace, TABLE, target, true), seed);
            Workload dag = new Workload(context.lakehouse().create(dagNamespace, TABLE, target, false), seed);
            int initialFiles = Math.max(partitions, rows / 5000);
            cryo.appendFiles(initialFiles, rows / initialFiles, partitions, 0);
            dag.appendFiles(initialFiles, rows / initialFiles, partitions, 0);
            TableId cryoId = context.lakehouse().id(cryoNamespace, TABLE);
            TableId dagId = context.lakehouse().id(dagNamespace, TABLE);

            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger dagRuns = new AtomicInteger();
            AtomicInteger dagSteps = new AtomicInteger();
            AtomicInteger dagStepsCommitted = new AtomicInteger();
            List<String> errors = new CopyOnWriteArrayList<>();
            List<double[]> cryoDeletes = new CopyOnWriteArrayList<>();
            List<double[]> dagDeletes = new CopyOnWriteArrayList<>();
            AtomicInteger mergeCount = new AtomicInteger();
            long start = System.nanoTime();
            long startMillis = System.currentTimeMillis();
            int trialNumber = trial + 1;
            ExecutorService threads = Executors.newFixedThreadPool(4);
            try {
                Future<?> writer = threads.submit(() -> {
                    int n = 0;
                    while (System.nanoTime() - start < duration.toNanos()) {
                        long due = start + interval.toNanos() * n;
                        sleepUntil(due);
                        int day = n % partitions;
                        cryo.merge(day, updates, inserts);
                        dag.merge(day, updates, inserts);
                        mergeCount.incrementAndGet();
                        n++;
                    }
                    return null;
                });
                Future<?> scheduler = threads.submit(() -> {
                    NativeDag runner = new NativeDag(context.lakehouse().plainRegistry());
                    int n = 1;
                    while (running.get()) {
                        sleepUntil(start + dagInterval.toNanos() * n++);
                        if (!running.get()) {
                            break;
                        }
                        NativeDag.TableRun run = runner.run(dagId);
                        dagRuns.incrementAndGet();
                        dagSteps.addAndGet(run.stepsAttempted());
                        dagStepsCommitted.addAndGet(run.stepsCommitted());
                        run.errors().forEach(error -> errors.add("DAG: " + error));
                    }
                    return null;
                });
                Future<?> sampler = threads.submit(() -> {
                    int n = 0;
                    while (running.get()) {
                        sleepUntil(start + sampleInterval.toNanos() * n++);
                        double seconds = (System.nanoTime() - start) / 1e9;
                        cryoDeletes.add(new double[]{seconds, TableFacts.of(
                                context.lakehouse().load(cryoNamespace, TABLE, false), 0).deleteFiles()});
                        dagDeletes.add(new double[]{seconds, TableFacts.of(
                                context.lakehouse().load(dagNamespace, TABLE, false), 0).deleteFiles()});
                    }
                    return null;
                });
                writer.get();
                running.set(false);
                scheduler.get();
                sampler.get();
            } finally {
                running.set(false);
                threads.shutdownNow();
                threads.awaitTermination(60, TimeUnit.SECONDS);
            }
            double end = (System.nanoTime() - start) / 1e9;
            // let Cryo finish what it started, so every admitted job has its result
            Settle.await(context, cryoNamespace, List.of(TABLE), Duration.ofMinutes(5));
            // one more sample once Cryo has settled: a second job that finishes after the writer stopped still has a
            // sample from its end on, so the "from the second job on" target sees the state it left
            double settledAt = (System.nanoTime() - start) / 1e9;
            cryoDeletes.add(new double[]{settledAt, TableFacts.of(
                    context.lakehouse().load(cryoNamespace, TABLE, false), 0).deleteFiles()});
            dagDeletes.add(new double[]{settledAt, TableFacts.of(
                    context.lakehouse().load(dagNamespace, TABLE, false), 0).deleteFiles()});
            // the DAG's copy stays paused: Cryo must never maintain it
            context.api().deletePolicy(context.pattern(cryoNamespace));

            List<JobAdmitted> admitted = context.tap().events(JobAdmitted.class, job -> job.table().equals(cryoId));
            List<JobFinished> finished = new ArrayList<>(context.tap().events(JobFinished.class,
                    job -> job.table().equals(cryoId)));
            finished.sort(Comparator.comparing(JobFinished::finishedAt));
            long succeeded = finished.stream().filter(job -> job.outcome() == JobOutcome.SUCCEEDED).count();
            cryoAttempted.add((double) admitted.size());
            cryoCommitted.add((double) succeeded);
            if (!admitted.isEmpty()) {
                cryoCommitShare.add((double) succeeded / admitted.size());
            }
            dagAttempted.add((double) dagSteps.get());
            dagCommitted.add((double) dagStepsCommitted.get());
            merges.add((double) mergeCount.get());
            if (finished.size() >= 2) {
                double second = (finished.get(1).finishedAt().toEpochMilli() - startMillis) / 1000.0;
                cryoMaxDeletesAfterSecondJob.add(cryoDeletes.stream().filter(sample -> sample[0] >= second)
                        .mapToDouble(sample -> sample[1]).max().orElse(0));
            }
            cryoMeanDeletes.add(cryoDeletes.stream().mapToDouble(sample -> sample[1]).average().orElse(0));
            dagMeanDeletes.add(dagDeletes.stream().mapToDouble(sample -> sample[1]).average().orElse(0));
            series.add(curve("delete files over time", "cryo, trial " + (trial + 1), cryoDeletes));
            series.add(curve("delete files over time", "dag, trial " + (trial + 1), dagDeletes));
            errors.forEach(error -> notes.add("trial " + trialNumber + ": " + error));
            finished.stream().filter(job -> job.outcome() != JobOutcome.SUCCEEDED).forEach(job -> notes.add(
                    "trial " + trialNumber + ": Cryo job " + job.jobId() + " " + job.outcome() + ": " + job.message()));
            notes.add("trial " + (trial + 1) + ": " + mergeCount.get() + " MERGEs in " + Math.round(end) + " s, "
                    + dagRuns.get() + " DAG cycles");
            // the timeline of Cryo's jobs, so a reader sees when Cryo reacted (the 1st MERGE commits at 0 s)
            List<String> timeline = new ArrayList<>();
            for (JobAdmitted job : admitted) {
                JobFinished result = finished.stream().filter(done -> done.jobId().equals(job.jobId())).findFirst()
                        .orElse(null);
                timeline.add(String.format("admitted at %.0f s, %s", (job.admittedAt().toEpochMilli() - startMillis)
                        / 1000.0, result == null ? "no result" : result.outcome() + String.format(" at %.0f s",
                        (result.finishedAt().toEpochMilli() - startMillis) / 1000.0)));
            }
            CryoApi.Graded grade = context.api().grades(cryoNamespace).get(cryoId.toString());
            notes.add("trial " + trialNumber + ": Cryo's jobs: " + (timeline.isEmpty() ? "none" : String.join("; ", timeline))
                    + "; Cryo's copy at the end: grade " + (grade == null ? "none" : grade.grade() + " (score "
                    + grade.score() + ")") + ", " + TableFacts.of(context.lakehouse().load(cryoNamespace, TABLE, false), 0)
                    .deleteFiles() + " delete files");
            Fingerprint cryoActual = cryo.actual();
            Fingerprint dagActual = dag.actual();
            finalRows.add((double) cryoActual.rows());
            if (!cryoActual.equals(cryo.expected())) {
                fingerprintFailures.add("trial " + (trial + 1) + " cryo: holds " + cryoActual + ", the writer wrote "
                        + cryo.expected());
            }
            if (!dagActual.equals(dag.expected())) {
                fingerprintFailures.add("trial " + (trial + 1) + " dag: holds " + dagActual + ", the writer wrote "
                        + dag.expected());
            }
        }
        List<Metric> metrics = new ArrayList<>(List.of(
                new Metric("jobs attempted", "", "cryo", cryoAttempted),
                new Metric("jobs committed", "", "cryo", cryoCommitted),
                new Metric("steps attempted", "", "dag", dagAttempted),
                new Metric("steps committed", "", "dag", dagCommitted),
                new Metric("mean delete files", "files", "cryo", cryoMeanDeletes),
                new Metric("mean delete files", "files", "dag", dagMeanDeletes),
                new Metric("MERGE commits", "", "-", merges),
                new Metric("rows at the end", "rows", "-", finalRows)));
        if (!cryoMaxDeletesAfterSecondJob.isEmpty()) {
            metrics.add(new Metric("max delete files from Cryo's 2nd job on", "files", "cryo", cryoMaxDeletesAfterSecondJob));
        }
        List<Target> targets = List.of(
                cryoCommitShare.isEmpty() ? Target.notEvaluated("100 % of Cryo's jobs commit", "Cryo ran no job")
                        : Target.atLeast("100 % of Cryo's jobs commit", MixedFleet.mean(cryoCommitShare), 1.0, ""),
                cryoMaxDeletesAfterSecondJob.isEmpty()
                        ? Target.notEvaluated("delete files ≤ 6 from Cryo's second job on", "Cryo ran fewer than two jobs")
                        : Target.atMost("delete files ≤ 6 from Cryo's second job on",
                        MixedFleet.mean(cryoMaxDeletesAfterSecondJob), 6, " files"));
        notes.add("MERGE = equality deletes on id + new versions in one row delta (as CDC writers commit), through the "
                + "commit reporter on Cryo's copy. Trino variant: " + (context.trinoAvailable()
                ? "not in this harness version" : "not run (Trino not started; start with --with trino)") + ".");
        return new ScenarioResult(id(), title(), ScenarioResult.SCORED, context.sizes().withPrefix("cdc."), metrics,
                List.of(new Metric("mean delete files cryo ÷ dag", "", "cryo/dag",
                        Statistics.ratios(cryoMeanDeletes, dagMeanDeletes))), targets, series, fingerprintFailures, notes);
    }

    private static Series curve(String chart, String name, List<double[]> samples) {
        return new Series(chart, name, "seconds", "delete files", samples.stream().map(sample -> sample[0]).toList(),
                samples.stream().map(sample -> sample[1]).toList());
    }

    private static void sleepUntil(long nanoTime) {
        long wait = nanoTime - System.nanoTime();
        if (wait > 0) {
            Settle.sleep(Duration.ofNanos(wait));
        }
    }
}
