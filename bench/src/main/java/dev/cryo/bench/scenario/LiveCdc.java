package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.domain.Series;
import dev.cryo.bench.domain.Target;
import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.CdcCopy;
import dev.cryo.bench.harness.CdcRows;
import dev.cryo.bench.harness.CryoApi;
import dev.cryo.bench.harness.NativeDag;
import dev.cryo.bench.harness.Settle;
import dev.cryo.bench.harness.Sizes;
import dev.cryo.bench.harness.SparkDag;
import dev.cryo.bench.harness.TableFacts;
import dev.cryo.bench.harness.TrinoClient;
import dev.cryo.bench.harness.TrinoDag;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import org.apache.iceberg.Table;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
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

    static final String TABLE = "cdc";
    static final String NO_TRINO = "not run: start with --with trino";

    /**
     * One pair of copies: Cryo's and the scheduled DAG's.
     *
     * @param cryo Cryo's contender label
     * @param dag the DAG's contender label
     * @param writers the label of the pair's writer figures
     * @param cryoSuffix the contender part of Cryo's namespace
     * @param dagSuffix the contender part of the DAG's namespace
     * @param dagEngine where the DAG runs (native, spark, trino); Cryo's jobs run on Trino when it is trino
     * @param label what the pair's targets and notes add to their text
     */
    record Variant(String cryo, String dag, String writers, String cryoSuffix, String dagSuffix, String dagEngine,
                   String label) {
    }

    static final Variant NATIVE = new Variant("cryo", "dag", "-", "cryo", "dag", "native", "");
    static final Variant SPARK_DAG = new Variant("cryo", "dag (spark)", "-", "cryo", "dag", "spark", "");
    static final Variant TRINO = new Variant("cryo (trino)", "dag (trino)", "- (trino)", "cryotrino", "dagtrino", "trino",
            " (Trino)");
    /** The table properties of SCORING.md's per-table overrides ({@code cryo.<check>.<setting>}). */
    static final String DELETE_WARNING = "cryo.position-deletes.warning";
    static final String DELETE_CRITICAL = "cryo.position-deletes.critical";

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
        boolean spark = CompactionEngines.sparkRunning(context);
        int minJobs = context.sizes().integer("cdc.min-jobs");
        CdcTally nativePair = new CdcTally(spark ? SPARK_DAG : NATIVE, minJobs);
        CdcTally trinoPair = new CdcTally(TRINO, minJobs);
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
            targets.add(Target.notEvaluated(Target.Rule.EVERY_TRIAL, "at least " + minJobs + " Cryo jobs per trial"
                    + TRINO.label(), NO_TRINO));
            targets.add(Target.notEvaluated(Target.Rule.EVERY_TRIAL, "100 % of Cryo's jobs commit" + TRINO.label(), NO_TRINO));
            targets.add(Target.notEvaluated(Target.Rule.EVERY_TRIAL, "delete files ≤ 6 from Cryo's second job on" + TRINO.label(), NO_TRINO));
        }
        notes.add("MERGE = position deletes for the updated rows' current positions + a file of new versions and inserts "
                + "in one row delta (as Spark and Trino MERGE into a merge-on-read table), validated against the snapshot "
                + "it read: when a compaction replaced a file it read, it reads again and retries (counted as a MERGE "
                + "conflict). Commits through the commit reporter on Cryo's copy. Cryo's copy has the table properties "
                + DELETE_WARNING + " = cdc.delete-warning and " + DELETE_CRITICAL + " = cdc.delete-critical.");
        notes.add(spark ? "Scheduled DAG (Spark, over Spark Connect), each cdc.dag-interval: " + String.join("; ",
                SparkDag.STATEMENTS).replace("%1$s", "<catalog>").replace("%2$s", "t").replace("%3$d", "<target>")
                : "Scheduled DAG: executor-svc's native engine in the harness (every partition, manifests, expiry); "
                + "start with --with spark for the Spark DAG (whole-table rewrite_data_files without partial progress).");
        notes.add(trino ? "Trino variant: after the native pair in each trial, two more copies from the same seed and "
                + "the same MERGEs; Cryo's copy has a governor policy (cooldown PT5S, engine trino), the DAG's cycle runs "
                + TrinoDag.describe() + " over Trino JDBC (user "
                + TrinoClient.USER + "); a statement that raised an error (a commit conflict with the writer, …) counts "
                + "as attempted, not committed; a statement counts as committed when it left a replace snapshot or "
                + "expired a snapshot." : "Trino variant: " + NO_TRINO + ".");
        return new ScenarioResult(id(), title(), trino ? ScenarioResult.SCORED : ScenarioResult.SCORED
                + "; Trino variant " + NO_TRINO, context.sizes().withPrefix("cdc."), metrics, ratios, targets, series,
                fingerprintFailures, notes);
    }

    /** One trial of one variant: both copies, their writers, the DAG's cycles and Cryo, sampled until Cryo settled. */
    private void trial(BenchContext context, int trial, CdcTally tally, List<Series> series,
                       List<String> fingerprintFailures, List<String> notes) throws Exception {
        Variant variant = tally.variant;
        Sizes sizes = context.sizes();
        Duration interval = sizes.duration("cdc.interval");
        Duration duration = sizes.duration("cdc.duration");
        Duration dagInterval = sizes.duration("cdc.dag-interval");
        Duration sampleInterval = sizes.duration("cdc.sample-interval");
        int partitions = sizes.integer("cdc.partitions");
        int updates = sizes.integer("cdc.updates");
        int inserts = sizes.integer("cdc.inserts");
        long target = sizes.longValue("cdc.target-file-size-bytes");
        int deleteWarning = sizes.integer("cdc.delete-warning");
        int deleteCritical = sizes.integer("cdc.delete-critical");

        String cryoNamespace = context.namespace(id(), trial, variant.cryoSuffix());
        String dagNamespace = context.namespace(id(), trial, variant.dagSuffix());
        context.lakehouse().createNamespace(cryoNamespace);
        context.lakehouse().createNamespace(dagNamespace);
        context.api().pause(context.pattern(dagNamespace), "CryoBench: the scheduled DAG's copy");
        if (variant.dagEngine().equals("trino")) {
            context.api().policy(context.pattern(cryoNamespace), Duration.ofSeconds(5), "trino");
        } else {
            context.api().policy(context.pattern(cryoNamespace), Duration.ofSeconds(5));
        }
        Table cryoTable = context.lakehouse().create(cryoNamespace, TABLE, target, true);
        // a CDC table's operator sets how many delete files it tolerates (SCORING.md: per-table overrides)
        cryoTable.updateProperties().set(DELETE_WARNING, String.valueOf(deleteWarning))
                .set(DELETE_CRITICAL, String.valueOf(deleteCritical)).commit();
        CdcRows rows = new CdcRows(BenchContext.seed(trial, 0), partitions);
        CdcCopy cryo = new CdcCopy(cryoTable);
        CdcCopy dag = new CdcCopy(context.lakehouse().create(dagNamespace, TABLE, target, false));
        String who = "trial " + (trial + 1) + variant.label();
        long buildStarted = System.nanoTime();
        long bytes = CdcCopy.build(rows, List.of(cryo, dag), sizes.longValue("cdc.table-bytes"),
                sizes.longValue("cdc.file-bytes"));
        notes.add(String.format(Locale.ROOT, "%s: each copy starts with %,d rows in %.0f MiB of data files (built in %.0f s)",
                who, rows.rows(), bytes / 1048576.0, (System.nanoTime() - buildStarted) / 1e9));
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
        Random days = new Random(BenchContext.seed(trial, 1));
        long start = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        ExecutorService threads = Executors.newFixedThreadPool(5);
        try {
            Future<?> writer = threads.submit(() -> {
                int n = 0;
                while (System.nanoTime() - start < duration.toNanos()) {
                    sleepUntil(start + interval.toNanos() * n);
                    CdcRows.Change change = rows.merge(days.nextInt(partitions), updates, inserts);
                    // both copies take the same MERGE at the same time; each retries its own conflicts
                    Future<Integer> onDag = threads.submit(() -> dag.merge(change));
                    cryo.merge(change);
                    onDag.get();
                    mergeCount.incrementAndGet();
                    n++;
                }
                return null;
            });
            Callable<Object> cycles = () -> {
                try (CdcDag.DagCycle cycle = CdcDag.dagCycle(context, variant, dagNamespace, dagId, target)) {
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
                        run.errors().forEach(error -> errors.add(String.format(Locale.ROOT, "DAG at %.0f s: %s",
                                (System.nanoTime() - start) / 1e9, error)));
                    }
                }
                return null;
            };
            Future<?> scheduler = threads.submit(cycles);
            Future<?> sampler = threads.submit(() -> {
                int n = 0;
                while (running.get()) {
                    sleepUntil(start + sampleInterval.toNanos() * n++);
                    sample(context, start, cryoNamespace, dagNamespace, cryoDeletes, dagDeletes);
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
        Settle.await(context, cryoNamespace, List.of(TABLE), Duration.ofMinutes(10));
        // one more sample once Cryo has settled: a second job that finishes after the writer stopped still has a
        // sample from its end on, so the "from the second job on" target sees the state it left
        sample(context, start, cryoNamespace, dagNamespace, cryoDeletes, dagDeletes);
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
        tally.cryoWriterConflicts.add((double) cryo.conflicts());
        tally.dagWriterConflicts.add((double) dag.conflicts());
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
        notes.add(who + ": " + mergeCount.get() + " MERGEs in " + Math.round(end) + " s (writer conflicts: "
                + cryo.conflicts() + " on Cryo's copy, " + dag.conflicts() + " on the DAG's), " + dagRuns.get()
                + " DAG cycles (" + dagSteps.get() + " steps, " + dagStepsCommitted.get() + " committed)");
        // the timeline of Cryo's jobs, so a reader sees when Cryo reacted (the 1st MERGE commits at 0 s)
        List<String> timeline = new ArrayList<>();
        for (JobAdmitted job : admitted) {
            JobFinished result = finished.stream().filter(done -> done.jobId().equals(job.jobId())).findFirst()
                    .orElse(null);
            timeline.add(String.format(Locale.ROOT, "%.0f s %s→%s", (job.admittedAt().toEpochMilli() - startMillis)
                    / 1000.0, job.engine(), result == null ? "no result" : result.outcome() + String.format(Locale.ROOT,
                    " at %.0f s", (result.finishedAt().toEpochMilli() - startMillis) / 1000.0)));
        }
        CryoApi.Graded grade = context.api().grades(cryoNamespace).get(cryoId.toString());
        notes.add(who + ": Cryo's jobs (admitted): " + (timeline.isEmpty() ? "none" : String.join("; ", timeline))
                + "; Cryo's copy at the end: grade " + (grade == null ? "none" : grade.grade() + " (score "
                + grade.score() + ")") + ", " + TableFacts.of(context.lakehouse().load(cryoNamespace, TABLE, false), 0)
                .deleteFiles() + " delete files");
        Fingerprint expected = rows.expected();
        Fingerprint cryoActual = cryo.actual();
        Fingerprint dagActual = dag.actual();
        tally.finalRows.add((double) expected.rows());
        if (!cryoActual.equals(expected)) {
            fingerprintFailures.add(who + " " + variant.cryo() + ": holds " + cryoActual + ", the writer wrote " + expected);
        }
        if (!dagActual.equals(expected)) {
            fingerprintFailures.add(who + " " + variant.dag() + ": holds " + dagActual + ", the writer wrote " + expected);
        }
    }

    private static void sample(BenchContext context, long start, String cryoNamespace, String dagNamespace,
                               List<double[]> cryoDeletes, List<double[]> dagDeletes) {
        double seconds = (System.nanoTime() - start) / 1e9;
        cryoDeletes.add(new double[]{seconds, TableFacts.of(context.lakehouse().load(cryoNamespace, TABLE, false), 0)
                .deleteFiles()});
        dagDeletes.add(new double[]{seconds, TableFacts.of(context.lakehouse().load(dagNamespace, TABLE, false), 0)
                .deleteFiles()});
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
