package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.QueryLatencies;
import dev.cryo.bench.domain.QuerySample;
import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.domain.Series;
import dev.cryo.bench.domain.Target;
import dev.cryo.bench.domain.TimeWindow;
import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.QueryMix;
import dev.cryo.bench.harness.Settle;
import dev.cryo.bench.harness.TrinoClient;
import dev.cryo.bench.harness.TrinoDag;
import dev.cryo.bench.harness.Workload;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Scenario 4: the dashboard query mix on Trino, in a loop on a never-maintained copy of scenario 2's
 * fragmented table, idle and while each contender maintains its own copy with Trino as its engine:
 * Cryo (a governor policy sends the copy's jobs to Trino) and the scheduled DAG's Trino statements.
 * The loop's table never changes, so its latencies show the maintenance's load on the cluster, not
 * a table that got faster under it.
 */
public final class UserImpact implements Scenario {

    private static final Logger LOG = LoggerFactory.getLogger(UserImpact.class);
    private static final String TABLE = "dashboard";
    @Override
    public int id() {
        return 4;
    }

    @Override
    public String title() {
        return "user impact: Trino dashboard latency during maintenance (Trino)";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        if (!context.trinoAvailable()) {
            return ScenarioResult.notRun(id(), title(), "Trino is not started; start with --with trino");
        }
        int files = context.sizes().integer("frag.files");
        int perCommit = context.sizes().integer("frag.files-per-commit");
        int partitions = context.sizes().integer("frag.partitions");
        int rowsPerFile = context.sizes().integer("frag.rows-per-file");
        int idleRounds = context.sizes().integer("impact.idle-rounds");
        long target = context.sizes().longValue("target-file-size-bytes");
        Duration timeout = context.sizes().duration("frag.settle-timeout");
        String catalog = context.lakehouse().catalogName();

        Map<String, List<Double>> values = new LinkedHashMap<>();
        List<Series> series = new ArrayList<>();
        List<String> fingerprintFailures = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (int trial = 0; trial < context.trials(); trial++) {
            int trialNumber = trial + 1;
            String cryoNamespace = context.namespace(id(), trial, "cryo");
            String dagNamespace = context.namespace(id(), trial, "dag");
            String referenceNamespace = context.namespace(id(), trial, "reference");
            context.lakehouse().createNamespace(cryoNamespace);
            context.lakehouse().createNamespace(dagNamespace);
            context.lakehouse().createNamespace(referenceNamespace);
            String cryoPause = context.api().pause(context.pattern(cryoNamespace), "CryoBench: building the table");
            context.api().pause(context.pattern(dagNamespace), "CryoBench: the scheduled DAG's copy");
            context.api().pause(context.pattern(referenceNamespace), "CryoBench: the dashboard's copy, never maintained");
            // the protocol's one setting (cooldown PT5S) and the engine this scenario is about
            context.api().policy(context.pattern(cryoNamespace), Duration.ofSeconds(5), "trino");
            long seed = BenchContext.seed(trial, 0);
            Workload cryo = new Workload(context.lakehouse().create(cryoNamespace, TABLE, target, false), seed);
            Workload dag = new Workload(context.lakehouse().create(dagNamespace, TABLE, target, false), seed);
            Workload reference = new Workload(context.lakehouse().create(referenceNamespace, TABLE, target, false), seed);
            long buildSeconds = Workload.appendToAll(List.of(cryo, dag, reference), files, perCommit, rowsPerFile,
                    partitions);
            notes.add("trial " + trialNumber + ": built three copies (" + files + " files each) in " + buildSeconds + " s");
            Fingerprint cryoBefore = cryo.actual();
            Fingerprint dagBefore = dag.actual();
            Fingerprint referenceBefore = reference.actual();
            String referenceTable = QueryMix.table(referenceNamespace, TABLE);
            String dagTable = QueryMix.table(dagNamespace, TABLE);
            TableId cryoId = context.lakehouse().id(cryoNamespace, TABLE);

            try (TrinoClient warmUp = TrinoClient.open(catalog)) {
                // one untimed round: Trino's first look at a table (metadata, plans) is not what a dashboard sees
                QueryMix.rounds(warmUp, referenceTable, 1);
            }
            int idleQueries = idleRounds * QueryMix.QUERIES.size();
            // The dashboard reads the reference copy all along, so every latency is of the same fragmented
            // table; idle rounds before, between and after the contenders' maintenance are its baseline.
            Loop dashboard = Loop.start(catalog, referenceTable);
            long loopStart = System.currentTimeMillis();
            List<TimeWindow> cryoJobs;
            List<TimeWindow> cryoStatements;
            List<TimeWindow> dagStatements = new ArrayList<>();
            long dagStart;
            long dagEnd;
            try {
                dashboard.awaitMore(idleQueries);
                context.api().resume(cryoPause);
                context.api().scan(cryoId);
                if (Reaction.awaitOptional(() -> context.tap().events(JobAdmitted.class,
                        job -> job.table().equals(cryoId)).stream().findFirst(), Duration.ofSeconds(120)).isEmpty()) {
                    notes.add("trial " + trialNumber + ": Cryo admitted no job within 120 s of the scan");
                }
                Settle.await(context, cryoNamespace, List.of(TABLE), timeout);
                dashboard.awaitMore(idleQueries);

                dagStart = System.currentTimeMillis();
                try (TrinoClient engineer = TrinoClient.open(catalog)) {
                    TrinoDag.setTargetFileSize(engineer, context.lakehouse().id(dagNamespace, TABLE), dag.table());
                    for (String statement : TrinoDag.STATEMENTS) {
                        long statementStart = System.currentTimeMillis();
                        try {
                            engineer.execute(statement.formatted(dagTable));
                        } finally {
                            dagStatements.add(new TimeWindow(statementStart, System.currentTimeMillis()));
                        }
                    }
                } catch (SQLException e) {
                    notes.add("trial " + trialNumber + ": the DAG's Trino statement failed: " + e.getMessage());
                } finally {
                    dagEnd = System.currentTimeMillis();
                }
                dashboard.awaitMore(idleQueries);
            } finally {
                dashboard.stop();
            }
            cryoJobs = cryoJobWindows(context, cryoId, trialNumber, notes);
            cryoStatements = cryoStatementWindows(context, cryoId);
            // the DAG's copy stays paused: Cryo must never maintain it
            context.api().deletePolicy(context.pattern(cryoNamespace));

            List<QuerySample> samples = dashboard.samples();
            // idle: touching no Cryo job (admission to result, verification included) and no DAG statement
            List<TimeWindow> busy = new ArrayList<>(cryoJobs);
            busy.add(new TimeWindow(dagStart, dagEnd));
            QueryLatencies idle = QueryLatencies.outside(samples, busy);
            QueryLatencies cryoDuring = QueryLatencies.during(samples, cryoStatements);
            QueryLatencies dagDuring = QueryLatencies.during(samples, dagStatements);

            ratio(values, "cryo", "p95 during ÷ idle", cryoDuring.percentileSeconds(95), idle.percentileSeconds(95));
            ratio(values, "dag", "p95 during ÷ idle", dagDuring.percentileSeconds(95), idle.percentileSeconds(95));
            ratio(values, "cryo", "p50 during ÷ idle", cryoDuring.percentileSeconds(50), idle.percentileSeconds(50));
            ratio(values, "dag", "p50 during ÷ idle", dagDuring.percentileSeconds(50), idle.percentileSeconds(50));
            record(values, "-", "p50 idle", idle.percentileSeconds(50));
            record(values, "-", "p95 idle", idle.percentileSeconds(95));
            record(values, "cryo", "p50 during maintenance", cryoDuring.percentileSeconds(50));
            record(values, "cryo", "p95 during maintenance", cryoDuring.percentileSeconds(95));
            record(values, "dag", "p50 during maintenance", dagDuring.percentileSeconds(50));
            record(values, "dag", "p95 during maintenance", dagDuring.percentileSeconds(95));
            record(values, "cryo", "failed queries", cryoDuring.failures());
            record(values, "dag", "failed queries", dagDuring.failures());
            record(values, "-", "failed queries", idle.failures());
            record(values, "-", "queries idle", idle.count());
            record(values, "cryo", "queries during maintenance", cryoDuring.count());
            record(values, "dag", "queries during maintenance", dagDuring.count());
            record(values, "cryo", "maintenance time", cryoStatements.stream().mapToDouble(TimeWindow::seconds).sum());
            record(values, "dag", "maintenance time", dagStatements.stream().mapToDouble(TimeWindow::seconds).sum());
            series.add(curve("dashboard latency on the reference copy, trial " + trialNumber, "all queries", samples,
                    loopStart));
            failures(notes, trialNumber, "cryo", cryoDuring);
            failures(notes, trialNumber, "dag", dagDuring);
            failures(notes, trialNumber, "idle", idle);
            notes.add("trial " + trialNumber + ": " + idle.count() + " queries idle; during Cryo's statements "
                    + cryoDuring.count() + " queries in " + cryoStatements.size() + " step(s) of "
                    + String.format("%.1f", cryoStatements.stream().mapToDouble(TimeWindow::seconds).sum())
                    + " s (" + cryoJobs.size() + " job(s)); during the DAG's statements " + dagDuring.count()
                    + " queries in " + String.format("%.1f", dagStatements.stream().mapToDouble(TimeWindow::seconds).sum())
                    + " s");
            check("trial " + trialNumber + " cryo", cryoBefore, cryo.actual(), cryo.expected(), fingerprintFailures);
            check("trial " + trialNumber + " dag", dagBefore, dag.actual(), dag.expected(), fingerprintFailures);
            check("trial " + trialNumber + " reference", referenceBefore, reference.actual(), reference.expected(),
                    fingerprintFailures);
        }

        List<Metric> metrics = new ArrayList<>();
        List<Metric> ratios = new ArrayList<>();
        values.forEach((key, perTrial) -> {
            String[] parts = key.split("\\|", 2);
            if (parts[1].contains("÷")) {
                ratios.add(new Metric(parts[1], "×", parts[0], perTrial));
            } else {
                String unit = parts[1].startsWith("p") || parts[1].endsWith("time") ? "s" : "queries";
                metrics.add(new Metric(parts[1], unit, parts[0], perTrial));
            }
        });
        List<Double> cryoRatios = values.getOrDefault("cryo|p95 during ÷ idle", List.of());
        List<Target> targets = List.of(
                cryoRatios.isEmpty()
                        ? Target.notEvaluated(Target.Rule.EVERY_TRIAL, "p95 during Cryo's maintenance ≤ 1.05 × idle",
                                "no query answered during a Cryo job")
                        : Target.atMost("p95 during Cryo's maintenance ≤ 1.05 × idle", cryoRatios, 1.05, "×"),
                Target.atMost("zero failed queries during Cryo's maintenance", values.get("cryo|failed queries"), 0,
                        " queries"));
        notes.add("Query mix on Trino (user " + TrinoClient.USER + ", one query at a time, in this order, every row read): "
                + QueryMix.describe() + ".");
        notes.add("One loop of the mix reads a third, never-maintained copy of the table (the reference) through the "
                + "whole trial, so idle and during-maintenance latencies are of the same table state: at least "
                + idleRounds + " rounds before Cryo's resume, after Cryo settled and after the DAG. Idle: its queries "
                + "that touch no Cryo job (JobAdmitted to JobFinished) and no DAG statement. During: its queries that "
                + "overlap one of Cryo's steps (OperationFinished: finishedAt − duration to finishedAt, the step's "
                + "verification included), resp. one of the DAG's statements. Latencies are nearest-rank percentiles "
                + "of the trial's answered queries (all five queries pooled).");
        notes.add("Cryo's copy: a governor policy (cooldown PT5S, engine trino) on its namespace; the executor runs "
                + "optimize on Trino and routes what Trino cannot do to the native engine. The DAG: "
                + TrinoDag.describe() + ", over Trino JDBC, one after the other.");
        Map<String, String> sizes = new TreeMap<>(context.sizes().withPrefix("frag."));
        sizes.putAll(context.sizes().withPrefix("impact."));
        sizes.remove("frag.query-runs"); // scenario 2's query mix, not this scenario's loop
        return new ScenarioResult(id(), title(), ScenarioResult.SCORED, sizes, metrics, ratios, targets, series,
                fingerprintFailures, notes);
    }

    /** The windows of Cryo's jobs on the table: JobAdmitted to its JobFinished (to now when none came). */
    private static List<TimeWindow> cryoJobWindows(BenchContext context, TableId table, int trial, List<String> notes) {
        Map<String, JobFinished> finished = new LinkedHashMap<>();
        context.tap().events(JobFinished.class, job -> job.table().equals(table)).forEach(job -> finished.put(job.jobId(), job));
        List<TimeWindow> windows = new ArrayList<>();
        for (JobAdmitted admitted : context.tap().events(JobAdmitted.class, job -> job.table().equals(table))) {
            JobFinished result = finished.get(admitted.jobId());
            long end = result == null ? System.currentTimeMillis() : result.finishedAt().toEpochMilli();
            windows.add(new TimeWindow(admitted.admittedAt().toEpochMilli(), Math.max(end, admitted.admittedAt().toEpochMilli())));
            notes.add("trial " + trial + ": Cryo job " + admitted.jobId() + " on " + admitted.engine() + ": "
                    + (result == null ? "no result" : result.outcome() + (result.outcome() == JobOutcome.SUCCEEDED ? ""
                    : " (" + result.message() + ")")));
        }
        return windows;
    }

    /** The windows of Cryo's steps on the table, every engine: finishedAt − duration to finishedAt. */
    private static List<TimeWindow> cryoStatementWindows(BenchContext context, TableId table) {
        return context.tap().events(OperationFinished.class, step -> step.table().equals(table)).stream()
                .filter(step -> step.duration() != null && !step.duration().isZero())
                .map(step -> new TimeWindow(step.finishedAt().minus(step.duration()).toEpochMilli(),
                        step.finishedAt().toEpochMilli()))
                .toList();
    }

    /** The query mix in a loop on its own connection, until stopped (after the round's current query). */
    private static final class Loop {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<QuerySample> samples = new CopyOnWriteArrayList<>();
        private final ExecutorService thread = Executors.newSingleThreadExecutor();
        private Future<?> task;

        static Loop start(String catalog, String table) {
            Loop loop = new Loop();
            loop.task = loop.thread.submit(() -> {
                try (TrinoClient client = TrinoClient.open(catalog)) {
                    while (loop.running.get()) {
                        for (Map.Entry<String, String> query : QueryMix.QUERIES.entrySet()) {
                            if (!loop.running.get()) {
                                break;
                            }
                            loop.samples.add(client.timed(query.getKey(), query.getValue().formatted(table)));
                        }
                    }
                }
                return null;
            });
            return loop;
        }

        /** Waits until the loop has run {@code queries} more queries (answered or failed). */
        void awaitMore(int queries) {
            int wanted = samples.size() + queries;
            while (samples.size() < wanted) {
                if (task.isDone()) {
                    throw new IllegalStateException("Cannot wait for the dashboard's queries: its loop ended");
                }
                Settle.sleep(Duration.ofMillis(100));
            }
        }

        void stop() throws Exception {
            running.set(false);
            try {
                task.get(10, TimeUnit.MINUTES);
            } finally {
                thread.shutdownNow();
            }
        }

        List<QuerySample> samples() {
            return List.copyOf(samples);
        }
    }

    private static void failures(List<String> notes, int trial, String contender, QueryLatencies phase) {
        List<QuerySample> failed = phase.samples().stream().filter(QuerySample::failed).toList();
        failed.stream().limit(3).forEach(sample -> notes.add("trial " + trial + " " + contender + ": query \""
                + sample.query() + "\" failed: " + sample.error()));
        if (failed.size() > 3) {
            notes.add("trial " + trial + " " + contender + ": " + (failed.size() - 3) + " more failed queries");
        }
        if (!failed.isEmpty()) {
            LOG.warn("Scenario 4, trial {}: {} queries failed ({})", trial, failed.size(), contender);
        }
    }

    private static Series curve(String chart, String name, List<QuerySample> samples, long originMillis) {
        List<QuerySample> answered = samples.stream().filter(sample -> !sample.failed()).toList();
        return new Series(chart, name, "seconds since the loop began", "latency (s)",
                answered.stream().map(sample -> (sample.startMillis() - originMillis) / 1000.0).toList(),
                answered.stream().map(QuerySample::latencySeconds).toList());
    }

    /** A per-trial ratio, left out when a phase had no answered query (the notes say how many ran). */
    private static void ratio(Map<String, List<Double>> values, String contender, String name, double numerator,
                              double denominator) {
        if (Double.isFinite(numerator) && Double.isFinite(denominator) && denominator > 0) {
            values.computeIfAbsent(contender + "|" + name, ignored -> new ArrayList<>()).add(numerator / denominator);
        }
    }

    private static void check(String who, Fingerprint before, Fingerprint after, Fingerprint expected, List<String> failures) {
        Fragmented.check(who, before, after, expected, failures);
    }

    /** A per-trial value; a percentile of a phase without an answered query (NaN) is left out. */
    private static void record(Map<String, List<Double>> values, String contender, String name, double value) {
        if (Double.isFinite(value)) {
            values.computeIfAbsent(contender + "|" + name, ignored -> new ArrayList<>()).add(value);
        }
    }
}
