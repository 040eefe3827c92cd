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
import dev.cryo.bench.harness.TrinoClient;
import dev.cryo.bench.harness.TrinoDag;
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
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scenario 3: a MERGE every interval on a partitioned table while each contender maintains its copy, on the
 * native engine and, when Trino is started, on Trino (Cryo's copy with a governor policy engine trino, the
 * DAG's cycle its three Trino statements), the Trino pair after the native pair in each trial.
 */
public final class LiveCdc implements Scenario {

    private static final String TABLE = "cdc";
    static final String NO_TRINO = "not run: start with --with trino";

    /**
     * One engine's pair of copies.
     *
     * @param cryo Cryo's contender label
     * @param dag the DAG's contender label
     * @param writers the label of the pair's writer figures
     * @param cryoSuffix the contender part of Cryo's namespace
     * @param dagSuffix the contender part of the DAG's namespace
     * @param trino whether Cryo's jobs and the DAG's statements run on Trino
     * @param label what the pair's targets and notes add to their text
     */
    record Variant(String cryo, String dag, String writers, String cryoSuffix, String dagSuffix, boolean trino,
                   String label) {
    }

    static final Variant NATIVE = new Variant("cryo", "dag", "-", "cryo", "dag", false, "");
    static final Variant TRINO = new Variant("cryo (trino)", "dag (trino)", "- (trino)", "cryotrino", "dagtrino", true,
            " (Trino)");

    @Override
    public int id() {
        return 3;
    }

    @Override
    public String title() {
        return "live CDC: MERGE every interval while maintained (native; Trino when started)";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        List<Series> series = new ArrayList<>();
        List<String> fingerprintFailures = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        boolean trino = context.trinoAvailable();
        Tally nativePair = new Tally(NATIVE);
        Tally trinoPair = new Tally(TRINO);
        for (int trial = 0; trial < context.trials(); trial++) {
            trial(context, trial, nativePair, series, fingerprintFailures, notes);
            if (trino) {
                trial(context, trial, trinoPair, series, fingerprintFailures, notes);
            }
        }
        List<Metric> metrics = new ArrayList<>(nativePair.metrics());
        List<Metric> ratios = new ArrayList<>(List.of(nativePair.ratio()));
        List<Target> targets = new ArrayList<>(nativePair.targets());
        if (trino) {
            metrics.addAll(trinoPair.metrics());
            ratios.add(trinoPair.ratio());
            targets.addAll(trinoPair.targets());
        } else {
            targets.add(Target.notEvaluated(Target.Rule.EVERY_TRIAL, "100 % of Cryo's jobs commit" + TRINO.label(), NO_TRINO));
            targets.add(Target.notEvaluated(Target.Rule.EVERY_TRIAL, "delete files ≤ 6 from Cryo's second job on" + TRINO.label(), NO_TRINO));
        }
        notes.add("MERGE = equality deletes on id + new versions in one row delta (as CDC writers commit), through the "
                + "commit reporter on Cryo's copy.");
        notes.add(trino ? "Trino variant: after the native pair in each trial, two more copies from the same seed and "
                + "the same MERGEs; Cryo's copy has a governor policy (cooldown PT5S, engine trino), the DAG's cycle runs "
                + String.join("; ", TrinoDag.STATEMENTS).replace("%s", "t") + " over Trino JDBC (user "
                + TrinoClient.USER + "); a statement that raised an error (a commit conflict with the writer, …) counts "
                + "as attempted, not committed; a statement counts as committed when it left a replace snapshot or "
                + "expired a snapshot." : "Trino variant: " + NO_TRINO + ".");
        return new ScenarioResult(id(), title(), trino ? ScenarioResult.SCORED : ScenarioResult.SCORED
                + "; Trino variant " + NO_TRINO, context.sizes().withPrefix("cdc."), metrics, ratios, targets, series,
                fingerprintFailures, notes);
    }

    /** One trial of one variant: both copies, their writers, the DAG's cycles and Cryo, sampled until Cryo settled. */
    private void trial(BenchContext context, int trial, Tally tally, List<Series> series,
                       List<String> fingerprintFailures, List<String> notes) throws Exception {
        Variant variant = tally.variant;
        Duration interval = context.sizes().duration("cdc.interval");
        Duration duration = context.sizes().duration("cdc.duration");
        Duration dagInterval = context.sizes().duration("cdc.dag-interval");
        Duration sampleInterval = context.sizes().duration("cdc.sample-interval");
        int partitions = context.sizes().integer("cdc.partitions");
        int rows = context.sizes().integer("cdc.rows");
        int updates = context.sizes().integer("cdc.updates");
        int inserts = context.sizes().integer("cdc.inserts");
        long target = context.sizes().longValue("target-file-size-bytes");

        String cryoNamespace = context.namespace(id(), trial, variant.cryoSuffix());
        String dagNamespace = context.namespace(id(), trial, variant.dagSuffix());
        context.lakehouse().createNamespace(cryoNamespace);
        context.lakehouse().createNamespace(dagNamespace);
        context.api().pause(context.pattern(dagNamespace), "CryoBench: the scheduled DAG's copy");
        if (variant.trino()) {
            context.api().policy(context.pattern(cryoNamespace), Duration.ofSeconds(5), "trino");
        } else {
            context.api().policy(context.pattern(cryoNamespace), Duration.ofSeconds(5));
        }
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
        String who = "trial " + (trial + 1) + variant.label();
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
            Callable<Object> cycles = () -> {
                DagCycle cycle = dagCycle(context, variant, dagNamespace, dagId);
                try (cycle) {
                    int n = 1;
                    while (running.get()) {
                        sleepUntil(start + dagInterval.toNanos() * n++);
                        if (!running.get()) {
                            break;
                        }
                        NativeDag.TableRun run = cycle.run();
                        dagRuns.incrementAndGet();
                        dagSteps.addAndGet(run.stepsAttempted());
                        dagStepsCommitted.addAndGet(run.stepsCommitted());
                        run.errors().forEach(error -> errors.add("DAG: " + error));
                    }
                }
                return null;
            };
            Future<?> scheduler = threads.submit(cycles);
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
        tally.cryoAttempted.add((double) admitted.size());
        tally.cryoCommitted.add((double) succeeded);
        if (!admitted.isEmpty()) {
            tally.cryoCommitShare.add((double) succeeded / admitted.size());
        }
        tally.dagAttempted.add((double) dagSteps.get());
        tally.dagCommitted.add((double) dagStepsCommitted.get());
        tally.merges.add((double) mergeCount.get());
        if (finished.size() >= 2) {
            double second = (finished.get(1).finishedAt().toEpochMilli() - startMillis) / 1000.0;
            tally.cryoMaxDeletesAfterSecondJob.add(cryoDeletes.stream().filter(sample -> sample[0] >= second)
                    .mapToDouble(sample -> sample[1]).max().orElse(0));
        }
        tally.cryoMeanDeletes.add(cryoDeletes.stream().mapToDouble(sample -> sample[1]).average().orElse(0));
        tally.dagMeanDeletes.add(dagDeletes.stream().mapToDouble(sample -> sample[1]).average().orElse(0));
        series.add(curve("delete files over time", variant.cryo() + ", trial " + (trial + 1), cryoDeletes));
        series.add(curve("delete files over time", variant.dag() + ", trial " + (trial + 1), dagDeletes));
        errors.forEach(error -> notes.add(who + ": " + error));
        finished.stream().filter(job -> job.outcome() != JobOutcome.SUCCEEDED).forEach(job -> notes.add(
                who + ": Cryo job " + job.jobId() + " " + job.outcome() + ": " + job.message()));
        notes.add(who + ": " + mergeCount.get() + " MERGEs in " + Math.round(end) + " s, " + dagRuns.get()
                + " DAG cycles (" + dagSteps.get() + " steps, " + dagStepsCommitted.get() + " committed)");
        // the timeline of Cryo's jobs, so a reader sees when Cryo reacted (the 1st MERGE commits at 0 s)
        List<String> timeline = new ArrayList<>();
        for (JobAdmitted job : admitted) {
            JobFinished result = finished.stream().filter(done -> done.jobId().equals(job.jobId())).findFirst()
                    .orElse(null);
            timeline.add(String.format("admitted at %.0f s on %s, %s", (job.admittedAt().toEpochMilli() - startMillis)
                    / 1000.0, job.engine(), result == null ? "no result" : result.outcome() + String.format(" at %.0f s",
                    (result.finishedAt().toEpochMilli() - startMillis) / 1000.0)));
        }
        CryoApi.Graded grade = context.api().grades(cryoNamespace).get(cryoId.toString());
        notes.add(who + ": Cryo's jobs: " + (timeline.isEmpty() ? "none" : String.join("; ", timeline))
                + "; Cryo's copy at the end: grade " + (grade == null ? "none" : grade.grade() + " (score "
                + grade.score() + ")") + ", " + TableFacts.of(context.lakehouse().load(cryoNamespace, TABLE, false), 0)
                .deleteFiles() + " delete files");
        Fingerprint cryoActual = cryo.actual();
        Fingerprint dagActual = dag.actual();
        tally.finalRows.add((double) cryoActual.rows());
        if (!cryoActual.equals(cryo.expected())) {
            fingerprintFailures.add(who + " " + variant.cryo() + ": holds " + cryoActual + ", the writer wrote "
                    + cryo.expected());
        }
        if (!dagActual.equals(dag.expected())) {
            fingerprintFailures.add(who + " " + variant.dag() + ": holds " + dagActual + ", the writer wrote "
                    + dag.expected());
        }
    }

    /** One cycle of the scheduled DAG on its copy, and what it holds open between cycles. */
    private interface DagCycle extends AutoCloseable {
        NativeDag.TableRun run();
    }

    /** Native: executor-svc's engine in the harness JVM. Trino: the three statements over one JDBC connection. */
    private static DagCycle dagCycle(BenchContext context, Variant variant, String dagNamespace, TableId dagId)
            throws Exception {
        if (!variant.trino()) {
            NativeDag runner = new NativeDag(context.lakehouse().plainRegistry());
            return new DagCycle() {
                @Override
                public NativeDag.TableRun run() {
                    return runner.run(dagId);
                }

                @Override
                public void close() {
                }
            };
        }
        TrinoClient client = TrinoClient.open(context.lakehouse().catalogName());
        TrinoDag runner = new TrinoDag(context.lakehouse());
        return new DagCycle() {
            @Override
            public NativeDag.TableRun run() {
                return runner.run(client, dagNamespace, TABLE);
            }

            @Override
            public void close() throws Exception {
                client.close();
            }
        };
    }

    /** The per-trial values of one variant, and its metrics and targets. */
    private static final class Tally {
        private final Variant variant;
        private final List<Double> cryoAttempted = new ArrayList<>();
        private final List<Double> cryoCommitted = new ArrayList<>();
        private final List<Double> dagAttempted = new ArrayList<>();
        private final List<Double> dagCommitted = new ArrayList<>();
        private final List<Double> cryoCommitShare = new ArrayList<>();
        private final List<Double> cryoMaxDeletesAfterSecondJob = new ArrayList<>();
        private final List<Double> cryoMeanDeletes = new ArrayList<>();
        private final List<Double> dagMeanDeletes = new ArrayList<>();
        private final List<Double> merges = new ArrayList<>();
        private final List<Double> finalRows = new ArrayList<>();

        Tally(Variant variant) {
            this.variant = variant;
        }

        List<Metric> metrics() {
            List<Metric> metrics = new ArrayList<>(List.of(
                    new Metric("jobs attempted", "", variant.cryo(), cryoAttempted),
                    new Metric("jobs committed", "", variant.cryo(), cryoCommitted),
                    new Metric("steps attempted", "", variant.dag(), dagAttempted),
                    new Metric("steps committed", "", variant.dag(), dagCommitted),
                    new Metric("mean delete files", "files", variant.cryo(), cryoMeanDeletes),
                    new Metric("mean delete files", "files", variant.dag(), dagMeanDeletes),
                    new Metric("MERGE commits", "", variant.writers(), merges),
                    new Metric("rows at the end", "rows", variant.writers(), finalRows)));
            if (!cryoMaxDeletesAfterSecondJob.isEmpty()) {
                metrics.add(new Metric("max delete files from Cryo's 2nd job on", "files", variant.cryo(),
                        cryoMaxDeletesAfterSecondJob));
            }
            return metrics;
        }

        Metric ratio() {
            return new Metric("mean delete files cryo ÷ dag", "", variant.cryo().replace("cryo", "cryo/dag"),
                    Statistics.ratios(cryoMeanDeletes, dagMeanDeletes));
        }

        List<Target> targets() {
            String commits = "100 % of Cryo's jobs commit" + variant.label();
            String deletes = "delete files ≤ 6 from Cryo's second job on" + variant.label();
            return List.of(
                    cryoCommitShare.isEmpty() ? Target.notEvaluated(Target.Rule.EVERY_TRIAL, commits, "Cryo ran no job")
                            : Target.atLeast(commits, cryoCommitShare, 1.0, ""),
                    cryoMaxDeletesAfterSecondJob.isEmpty()
                            ? Target.notEvaluated(Target.Rule.EVERY_TRIAL, deletes, "Cryo ran fewer than two jobs")
                            : Target.atMost(deletes, cryoMaxDeletesAfterSecondJob, 6, " files"));
        }
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
