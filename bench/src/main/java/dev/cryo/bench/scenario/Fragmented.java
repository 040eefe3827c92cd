package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.domain.Statistics;
import dev.cryo.bench.domain.Target;
import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.NativeDag;
import dev.cryo.bench.harness.ProcessCpu;
import dev.cryo.bench.harness.Settle;
import dev.cryo.bench.harness.TableFacts;
import dev.cryo.bench.harness.Workload;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.iceberg.fingerprint.Fingerprint;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Scenario 2: one table fragmented by streaming; Cryo against an engineer's hand-run maintenance on a copy. */
public final class Fragmented implements Scenario {

    private static final String TABLE = "streamed";

    @Override
    public int id() {
        return 2;
    }

    @Override
    public String title() {
        return "one table fragmented by streaming (native)";
    }

    @Override
    public ScenarioResult run(BenchContext context) {
        int files = context.sizes().integer("frag.files");
        int perCommit = context.sizes().integer("frag.files-per-commit");
        int partitions = context.sizes().integer("frag.partitions");
        int rowsPerFile = context.sizes().integer("frag.rows-per-file");
        long target = context.sizes().longValue("target-file-size-bytes");
        Duration timeout = context.sizes().duration("frag.settle-timeout");
        Map<String, List<Double>> values = new LinkedHashMap<>();
        List<String> fingerprintFailures = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (int trial = 0; trial < context.trials(); trial++) {
            String cryoNamespace = context.namespace(id(), trial, "cryo");
            String handNamespace = context.namespace(id(), trial, "hand");
            context.lakehouse().createNamespace(cryoNamespace);
            context.lakehouse().createNamespace(handNamespace);
            String cryoPause = context.api().pause(context.pattern(cryoNamespace), "CryoBench: building the table");
            context.api().pause(context.pattern(handNamespace), "CryoBench: the hand-run copy");
            // PROTOCOL.md: the only setting the harness changes on Cryo's copy is cooldown = PT5S, as in scenarios 1 and 3
            // (a plan made before the job ran would otherwise wait out the default 10-minute cooldown in the queue)
            context.api().policy(context.pattern(cryoNamespace), Duration.ofSeconds(5));
            long seed = BenchContext.seed(trial, 0);
            Workload cryo = new Workload(context.lakehouse().create(cryoNamespace, TABLE, target, false), seed);
            Workload hand = new Workload(context.lakehouse().create(handNamespace, TABLE, target, false), seed);
            long buildSeconds = Workload.appendToBoth(cryo, hand, files, perCommit, rowsPerFile, partitions);
            notes.add("trial " + (trial + 1) + ": built both copies in " + buildSeconds + " s");
            TableFacts before = TableFacts.of(cryo.table(), 0);
            record(values, "cryo", "data files before", before.dataFiles());
            record(values, "hand-run", "data files before", TableFacts.of(hand.table(), 0).dataFiles());
            Fingerprint cryoBefore = cryo.actual();
            Fingerprint handBefore = hand.actual();

            TableId cryoId = context.lakehouse().id(cryoNamespace, TABLE);
            Map<String, Double> servicesBefore = ProcessCpu.services(context.environment());
            double executorBefore = executorCpu(context);
            long cryoStart = System.nanoTime();
            context.api().resume(cryoPause);
            context.api().scan(cryoId);
            if (Reaction.awaitOptional(() -> context.tap().events(JobAdmitted.class, job -> job.table().equals(cryoId))
                    .stream().findFirst(), Duration.ofSeconds(120)).isEmpty()) {
                notes.add("trial " + (trial + 1) + ": Cryo admitted no job for the fragmented table within 120 s of the scan");
            }
            long settleCall = System.nanoTime();
            Duration settled = Settle.await(context, cryoNamespace, List.of(TABLE), timeout);
            double cryoWall = (settleCall - cryoStart) / 1e9 + settled.toMillis() / 1000.0;
            double executorCpu = executorCpu(context) - executorBefore;
            double servicesCpu = ProcessCpu.delta(servicesBefore, ProcessCpu.services(context.environment()));

            double ownBefore = ProcessCpu.ownCpuSeconds();
            long handStart = System.nanoTime();
            new NativeDag(context.lakehouse().plainRegistry()).run(context.lakehouse().id(handNamespace, TABLE))
                    .requireAllSucceeded();
            double handWall = (System.nanoTime() - handStart) / 1e9;
            double handCpu = ProcessCpu.ownCpuSeconds() - ownBefore;
            // the hand-run copy stays paused: Cryo must never maintain it
            context.api().deletePolicy(context.pattern(cryoNamespace));

            TableFacts cryoAfter = TableFacts.of(cryo.table(), 0);
            TableFacts handAfter = TableFacts.of(hand.table(), 0);
            record(values, "cryo", "data files after", cryoAfter.dataFiles());
            record(values, "hand-run", "data files after", handAfter.dataFiles());
            record(values, "cryo", "bytes after", cryoAfter.dataBytes());
            record(values, "hand-run", "bytes after", handAfter.dataBytes());
            record(values, "cryo", "wall time", cryoWall);
            record(values, "hand-run", "wall time", handWall);
            record(values, "cryo", "compute (executor CPU)", executorCpu);
            record(values, "hand-run", "compute (executor CPU)", handCpu);
            record(values, "cryo", "control-plane CPU (all services)", servicesCpu);
            check("trial " + (trial + 1) + " cryo", cryoBefore, cryo.actual(), cryo.expected(), fingerprintFailures);
            check("trial " + (trial + 1) + " hand-run", handBefore, hand.actual(), hand.expected(), fingerprintFailures);
        }
        List<Metric> metrics = new ArrayList<>();
        values.forEach((key, perTrial) -> {
            String[] parts = key.split("\\|", 2);
            String unit = parts[1].contains("time") || parts[1].contains("CPU") ? "s"
                    : parts[1].startsWith("bytes") ? "bytes" : "files";
            metrics.add(new Metric(parts[1], unit, parts[0], perTrial));
        });
        List<Double> cpuRatios = Statistics.ratios(values.get("cryo|compute (executor CPU)"),
                values.get("hand-run|compute (executor CPU)"));
        List<Metric> ratios = List.of(
                new Metric("compute cryo ÷ hand-run", "", "cryo/hand-run", cpuRatios),
                new Metric("data files after cryo ÷ hand-run", "", "cryo/hand-run", Statistics.ratios(
                        values.get("cryo|data files after"), values.get("hand-run|data files after"))),
                new Metric("wall time cryo ÷ hand-run", "", "cryo/hand-run", Statistics.ratios(
                        values.get("cryo|wall time"), values.get("hand-run|wall time"))));
        List<Target> targets = List.of(
                Target.within("same file count as the hand-run SQL (± 5 %)", MixedFleet.mean(values.get("cryo|data files after")),
                        MixedFleet.mean(values.get("hand-run|data files after")), 0.05),
                Target.within("same bytes as the hand-run SQL (± 5 %)", MixedFleet.mean(values.get("cryo|bytes after")),
                        MixedFleet.mean(values.get("hand-run|bytes after")), 0.05),
                Target.atMost("compute ≤ 1.1 × hand-run", MixedFleet.mean(cpuRatios), 1.1, "×"),
                Target.notEvaluated("query-mix geometric-mean speedup on Trino", context.trinoAvailable()
                        ? "this harness version has no Trino query client yet" : "Trino is not started (start with --with trino)"));
        notes.add("Cryo's wall time: from resuming the table (and one fix-now scan) to the start of the 10 s quiet window. "
                + "The hand-run is the DAG's statements run once on the copy, in the harness JVM.");
        return new ScenarioResult(id(), title(), ScenarioResult.SCORED, context.sizes().withPrefix("frag."), metrics,
                ratios, targets, List.of(), fingerprintFailures, notes);
    }

    static void check(String who, Fingerprint before, Fingerprint after, Fingerprint expected, List<String> failures) {
        if (!before.equals(after) || !after.equals(expected)) {
            failures.add(who + ": " + before + " before, " + after + " after, written " + expected);
        }
    }

    private static double executorCpu(BenchContext context) {
        return context.environment().servicePid("executor").map(ProcessCpu::cpuSeconds).orElse(Double.NaN);
    }

    private static void record(Map<String, List<Double>> values, String contender, String name, double value) {
        values.computeIfAbsent(contender + "|" + name, ignored -> new ArrayList<>()).add(value);
    }
}
