package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.domain.Statistics;
import dev.cryo.bench.domain.Target;
import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.CryoApi;
import dev.cryo.bench.harness.NativeDag;
import dev.cryo.bench.harness.ProcessCpu;
import dev.cryo.bench.harness.Settle;
import dev.cryo.bench.harness.TableFacts;
import dev.cryo.bench.harness.Workload;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Scenario 1: a mixed fleet over cycles, Cryo against the scheduled DAG on the native engine. */
public final class MixedFleet implements Scenario {

    private static final Logger LOG = LoggerFactory.getLogger(MixedFleet.class);

    enum TableClass { HEALTHY, QUIET, FRAGMENTING, BADLY_FRAGMENTED, ROW_UPDATED }

    @Override
    public int id() {
        return 1;
    }

    @Override
    public String title() {
        return "mixed fleet over cycles (native)";
    }

    @Override
    public ScenarioResult run(BenchContext context) {
        int perClass = context.sizes().integer("fleet.per-class");
        int partitions = context.sizes().integer("fleet.partitions");
        int cycles = context.sizes().integer("fleet.cycles");
        int smallPerCycle = context.sizes().integer("fleet.small-per-cycle");
        int badSmall = context.sizes().integer("fleet.bad-small-files");
        int updatedRows = context.sizes().integer("fleet.updated-rows");
        int largeRows = context.sizes().integer("fleet.large-file-rows");
        long target = context.sizes().longValue("target-file-size-bytes");
        Duration settleTimeout = context.sizes().duration("fleet.settle-timeout");

        Map<String, List<Double>> values = new LinkedHashMap<>();
        List<String> fingerprintFailures = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (int trial = 0; trial < context.trials(); trial++) {
            String cryoNamespace = context.namespace(id(), trial, "cryo");
            String dagNamespace = context.namespace(id(), trial, "dag");
            context.lakehouse().createNamespace(cryoNamespace);
            context.lakehouse().createNamespace(dagNamespace);
            context.api().pause(context.pattern(dagNamespace), "CryoBench: the scheduled DAG's copy");
            context.api().policy(context.pattern(cryoNamespace), Duration.ofSeconds(5));
            long trialStart = System.currentTimeMillis();

            List<String> names = new ArrayList<>();
            List<TableClass> classes = new ArrayList<>();
            Map<String, Workload> cryo = new LinkedHashMap<>();
            Map<String, Workload> dag = new LinkedHashMap<>();
            int index = 0;
            for (TableClass tableClass : TableClass.values()) {
                for (int i = 0; i < perClass; i++) {
                    String name = tableClass.name().toLowerCase(java.util.Locale.ROOT) + "_" + i;
                    long seed = BenchContext.seed(trial, index++);
                    names.add(name);
                    classes.add(tableClass);
                    cryo.put(name, new Workload(context.lakehouse().create(cryoNamespace, name, target, true), seed));
                    dag.put(name, new Workload(context.lakehouse().create(dagNamespace, name, target, false), seed));
                }
            }
            long decayedPartitions = 0;
            double cryoSeconds = 0;
            double dagSeconds = 0;
            double dagCpu = 0;
            Map<String, Double> cryoCpuStart = ProcessCpu.services(context.environment());
            double executorCpuStart = executorCpu(context);
            for (int cycle = 0; cycle < cycles; cycle++) {
                for (int t = 0; t < names.size(); t++) {
                    decayedPartitions += write(classes.get(t), cycle, cryo.get(names.get(t)), partitions, smallPerCycle,
                            badSmall, updatedRows, largeRows);
                    write(classes.get(t), cycle, dag.get(names.get(t)), partitions, smallPerCycle, badSmall, updatedRows,
                            largeRows);
                }
                Map<String, Fingerprint> cryoBefore = fingerprints(cryo);
                Map<String, Fingerprint> dagBefore = fingerprints(dag);
                long settleStart = System.nanoTime();
                Duration settled = Settle.await(context, cryoNamespace, names, settleTimeout);
                cryoSeconds += settled.toMillis() / 1000.0;
                double cpuBefore = ProcessCpu.ownCpuSeconds();
                long dagStart = System.nanoTime();
                NativeDag runner = new NativeDag(context.lakehouse().plainRegistry());
                for (String name : names) {
                    runner.run(context.lakehouse().id(dagNamespace, name)).requireAllSucceeded();
                }
                dagSeconds += (System.nanoTime() - dagStart) / 1e9;
                dagCpu += ProcessCpu.ownCpuSeconds() - cpuBefore;
                LOG.info("scenario 1 trial {} cycle {}: Cryo settled after {} s, the DAG's cycle took {} s", trialOf(trial),
                        cycle + 1, settled.toMillis() / 1000.0, Math.round((System.nanoTime() - dagStart) / 1e9));
                compare("trial " + trialOf(trial) + " cycle " + cycle + " cryo", cryoBefore, fingerprints(cryo),
                        fingerprintFailures);
                compare("trial " + trialOf(trial) + " cycle " + cycle + " dag", dagBefore, fingerprints(dag),
                        fingerprintFailures);
                if ((System.nanoTime() - settleStart) < 0) {
                    throw new IllegalStateException("clock went backwards");
                }
            }
            double cryoCpu = ProcessCpu.delta(cryoCpuStart, ProcessCpu.services(context.environment()));
            double executorCpu = executorCpu(context) - executorCpuStart;
            // the DAG copy's final grades: let the scorer see the DAG's last commits
            Settle.awaitGraded(context, dagNamespace, names, settleTimeout);
            Map<String, CryoApi.Graded> cryoGrades = context.api().grades(cryoNamespace);
            Map<String, CryoApi.Graded> dagGrades = context.api().grades(dagNamespace);

            record(values, "cryo", "rewrites", facts(context, cryoNamespace, names, trialStart, null).rewrites());
            record(values, "dag", "rewrites", facts(context, dagNamespace, names, trialStart, null).rewrites());
            record(values, "cryo", "rewritten partitions",
                    facts(context, cryoNamespace, names, trialStart, null).rewrittenPartitions());
            record(values, "dag", "rewritten partitions",
                    facts(context, dagNamespace, names, trialStart, null).rewrittenPartitions());
            record(values, "-", "decayed partitions", decayedPartitions);
            List<Integer> healthyOrQuiet = new ArrayList<>();
            for (int t = 0; t < names.size(); t++) {
                if (classes.get(t) == TableClass.HEALTHY || classes.get(t) == TableClass.QUIET) {
                    healthyOrQuiet.add(t);
                }
            }
            record(values, "cryo", "rewrites of healthy or quiet tables",
                    facts(context, cryoNamespace, names, trialStart, healthyOrQuiet).rewrites());
            record(values, "dag", "rewrites of healthy or quiet tables",
                    facts(context, dagNamespace, names, trialStart, healthyOrQuiet).rewrites());
            record(values, "cryo", "maintenance commits on healthy or quiet tables",
                    facts(context, cryoNamespace, names, trialStart, healthyOrQuiet).maintenanceCommits());
            record(values, "dag", "maintenance commits on healthy or quiet tables",
                    facts(context, dagNamespace, names, trialStart, healthyOrQuiet).maintenanceCommits());
            record(values, "cryo", "share of fleet at grade >= B", shareAtLeastB(cryoGrades, names.size()));
            record(values, "dag", "share of fleet at grade >= B", shareAtLeastB(dagGrades, names.size()));
            record(values, "cryo", "maintenance wall time", cryoSeconds);
            record(values, "dag", "maintenance wall time", dagSeconds);
            record(values, "cryo", "executor CPU", executorCpu);
            record(values, "cryo", "control-plane CPU (all services)", cryoCpu);
            record(values, "dag", "executor CPU", dagCpu);
            // the DAG's copy stays paused: Cryo must never maintain it, not even after the measurement
            context.api().deletePolicy(context.pattern(cryoNamespace));
        }
        List<Metric> metrics = new ArrayList<>();
        values.forEach((key, perTrial) -> {
            String[] parts = key.split("\\|", 2);
            metrics.add(new Metric(parts[1], unit(parts[1]), parts[0], perTrial));
        });
        List<Metric> ratios = List.of(
                new Metric("rewritten partitions cryo ÷ dag", "", "cryo/dag", Statistics.ratios(
                        values.get("cryo|rewritten partitions"), values.get("dag|rewritten partitions"))),
                new Metric("executor CPU cryo ÷ dag", "", "cryo/dag", Statistics.ratios(
                        values.get("cryo|executor CPU"), values.get("dag|executor CPU"))));
        List<Target> targets = List.of(
                Target.atMost("zero rewrites of healthy or quiet tables (Cryo)",
                        values.get("cryo|rewrites of healthy or quiet tables"), 0, ""),
                Target.atMost("rewritten partitions ≤ decayed partitions (Cryo), ratio",
                        Statistics.ratios(values.get("cryo|rewritten partitions"), values.get("-|decayed partitions")),
                        1.0, ""),
                Target.atLeast("100 % of the fleet at grade ≥ B at the end (Cryo)",
                        values.get("cryo|share of fleet at grade >= B"), 1.0, ""));
        notes.add("Cryo's wall time per cycle is from the end of the cycle's writes to the first moment of a 10 s quiet "
                + "window (every table graded at its current snapshot, nothing queued or running).");
        notes.add("CPU: the DAG's is the harness JVM's CPU during its cycles (in-process NativeEngine); Cryo's executor CPU is "
                + "the executor process's; the control-plane figure adds scanner, scorer, planner, governor and audit, "
                + "which also grade the DAG's copies.");
        return new ScenarioResult(id(), title(), ScenarioResult.SCORED, context.sizes().withPrefix("fleet."), metrics,
                ratios, targets, List.of(), fingerprintFailures, notes);
    }

    /** Writes one cycle of the class's story; returns the partitions it decayed (small files or deletes). */
    private static int write(TableClass tableClass, int cycle, Workload table, int partitions, int smallPerCycle,
                             int badSmall, int updatedRows, int largeRows) {
        if (cycle == 0) {
            if (tableClass == TableClass.BADLY_FRAGMENTED) {
                table.appendFiles(badSmall * partitions, 50, partitions, 0);
            } else {
                for (int day = 0; day < partitions; day++) {
                    table.append(day, largeRows);
                }
            }
        }
        int day = cycle % partitions;
        switch (tableClass) {
            case HEALTHY -> {
                if (cycle > 0) {
                    table.append(day, largeRows);
                }
                return 0;
            }
            case QUIET -> {
                return 0;
            }
            case FRAGMENTING, BADLY_FRAGMENTED -> {
                for (int i = 0; i < smallPerCycle; i++) {
                    table.append(day, 50);
                }
                return tableClass == TableClass.BADLY_FRAGMENTED && cycle == 0 ? partitions : 1;
            }
            case ROW_UPDATED -> {
                table.merge(day, updatedRows, 0);
                return 1;
            }
            default -> throw new IllegalStateException("unknown class " + tableClass);
        }
    }

    private static TableFacts facts(BenchContext context, String namespace, List<String> names, long since,
                                    List<Integer> only) {
        long rewrites = 0;
        long partitions = 0;
        long commits = 0;
        for (int t = 0; t < names.size(); t++) {
            if (only != null && !only.contains(t)) {
                continue;
            }
            TableFacts facts = TableFacts.of(context.lakehouse().load(namespace, names.get(t), false), since);
            rewrites += facts.rewrites();
            partitions += facts.rewrittenPartitions();
            commits += facts.maintenanceCommits();
        }
        return new TableFacts(0, 0, 0, rewrites, partitions, commits);
    }

    private static double shareAtLeastB(Map<String, CryoApi.Graded> grades, int tables) {
        long good = grades.values().stream().filter(graded -> graded.grade().equals("A") || graded.grade().equals("B"))
                .count();
        return tables == 0 ? 0 : (double) good / tables;
    }

    static Map<String, Fingerprint> fingerprints(Map<String, Workload> tables) {
        Map<String, Fingerprint> fingerprints = new LinkedHashMap<>();
        tables.forEach((name, workload) -> fingerprints.put(name, workload.actual()));
        return fingerprints;
    }

    static void compare(String when, Map<String, Fingerprint> before, Map<String, Fingerprint> after,
                        List<String> failures) {
        before.forEach((name, fingerprint) -> {
            if (!fingerprint.equals(after.get(name))) {
                failures.add(when + ": table " + name + " held " + fingerprint + " before maintenance and "
                        + after.get(name) + " after");
            }
        });
    }

    private static double executorCpu(BenchContext context) {
        return context.environment().servicePid("executor").map(ProcessCpu::cpuSeconds).orElse(Double.NaN);
    }

    private static void record(Map<String, List<Double>> values, String contender, String name, double value) {
        values.computeIfAbsent(contender + "|" + name, ignored -> new ArrayList<>()).add(value);
    }

    private static String unit(String name) {
        if (name.contains("wall time") || name.contains("CPU")) {
            return "s";
        }
        return name.contains("share") ? "share" : "";
    }

    private static int trialOf(int trial) {
        return trial + 1;
    }

    static Double mean(List<Double> values) {
        return values == null || values.isEmpty() ? null : Statistics.summarize(values).mean();
    }
}
