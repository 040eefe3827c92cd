package dev.cryo.bench.scenario;

import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.NativeDag;
import dev.cryo.bench.harness.ProcessCpu;
import dev.cryo.bench.harness.Settle;
import dev.cryo.bench.harness.TrinoClient;
import dev.cryo.bench.harness.TrinoDag;
import dev.cryo.bench.scenario.Fragmented.Copy;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.JobAdmitted;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static dev.cryo.bench.scenario.Fragmented.JIT;
import static dev.cryo.bench.scenario.Fragmented.TABLE;

/** Scenario 2's contenders maintaining their copies, and what each one's maintenance cost (PROTOCOL.md, scenario 2). */
final class FragmentedContenders {

    private FragmentedContenders() {
    }

    /**
     * When a contender's compute is read: this long after its work ended (the hand-run's last statement returned,
     * Cryo's copy first settled), for every contender alike: Trino goes on working for a moment after a statement
     * returns (ANALYSES.md, scenario 2 under protocol 12), and the 10 s of stability that confirm Cryo's copy is quiet
     * would add 10 s of every process's idle CPU to Cryo's compute alone.
     */
    static final Duration READ_AFTER = Duration.ofSeconds(3);

    /** The CPU-seconds so far of the processes Cryo's compute in this scenario is taken from. */
    private record CryoCpu(double executor, double compiler, double trino, Map<String, Double> services) {

        static CryoCpu read(BenchContext context, Optional<Long> trinoPid) {
            return new CryoCpu(executorCpu(context),
                    executorCompiler(context) + trinoPid.map(ProcessCpu::compilerSeconds).orElse(0.0),
                    trinoPid.map(ProcessCpu::cpuSeconds).orElse(Double.NaN), ProcessCpu.services(context.environment()));
        }
    }

    /**
     * Cryo maintains its copy: resume (when {@code resume}: the copy is still paused), one scan, wait until settled; CPU
     * of the executor (and of Trino when given), and of their JIT compilers, {@link #READ_AFTER} after the copy first
     * settled (not after the stable window that confirms it).
     */
    static void cryoRun(BenchContext context, Copy copy, boolean resume, Duration timeout, Optional<Long> trinoPid,
                                Map<String, List<Double>> values, List<String> notes, int trial) {
        TableId id = context.lakehouse().id(copy.namespace(), TABLE);
        int jobsBefore = context.tap().events(JobAdmitted.class, job -> job.table().equals(id)).size();
        CryoCpu before = CryoCpu.read(context, trinoPid);
        long start = System.nanoTime();
        if (resume) {
            context.api().resume(copy.pause());
        }
        context.api().scan(id);
        if (Reaction.awaitOptional(() -> context.tap().events(JobAdmitted.class, job -> job.table().equals(id))
                .stream().skip(jobsBefore).findFirst(), Duration.ofSeconds(120)).isEmpty()) {
            notes.add("trial " + trial + ": Cryo (" + copy.contender() + ") admitted no job for the fragmented table "
                    + "within 120 s of the scan");
        }
        long settleCall = System.nanoTime();
        Settle.Settled<CryoCpu> settled = Settle.await(context, copy.namespace(), List.of(TABLE), timeout, READ_AFTER,
                () -> CryoCpu.read(context, trinoPid));
        double wall = (settleCall - start) / 1e9 + settled.quietAfter().toMillis() / 1000.0;
        CryoCpu after = settled.reading();
        double executorCpu = after.executor() - before.executor();
        double trinoCpu = after.trino() - before.trino();
        double compiler = after.compiler() - before.compiler();
        double servicesCpu = ProcessCpu.delta(before.services(), after.services());
        record(values, copy.contender(), "wall time", wall);
        record(values, copy.contender(), "compute (executor CPU)", executorCpu);
        record(values, copy.contender(), JIT, compiler);
        if (trinoPid.isPresent()) {
            record(values, copy.contender(), "Trino server CPU", trinoCpu);
            record(values, copy.contender(), "compute (Trino server + executor CPU)", trinoCpu + executorCpu);
        }
        record(values, copy.contender(), "control-plane CPU (all services)", servicesCpu);
        Map<String, Long> engines = context.tap().events(JobAdmitted.class, job -> job.table().equals(id)).stream()
                .collect(Collectors.groupingBy(job -> String.valueOf(job.engine()), LinkedHashMap::new,
                        Collectors.counting()));
        notes.add("trial " + trial + ": " + copy.contender() + "'s jobs by engine: " + (engines.isEmpty() ? "none"
                : engines.entrySet().stream().map(entry -> entry.getValue() + " on " + entry.getKey())
                .collect(Collectors.joining(", "))));
    }

    /**
     * The hand-run on the native engine: the DAG's steps once, in the harness JVM; compute = the harness's CPU,
     * {@link #READ_AFTER} after the last step.
     */
    static void handRunNative(BenchContext context, Copy copy, Map<String, List<Double>> values) {
        double ownBefore = ProcessCpu.ownCpuSeconds();
        double compilerBefore = ProcessCpu.ownCompilerSeconds();
        long start = System.nanoTime();
        new NativeDag(context.lakehouse().plainRegistry()).run(context.lakehouse().id(copy.namespace(), TABLE))
                .requireAllSucceeded();
        record(values, copy.contender(), "wall time", (System.nanoTime() - start) / 1e9);
        Settle.sleep(READ_AFTER);
        record(values, copy.contender(), "compute (executor CPU)", ProcessCpu.ownCpuSeconds() - ownBefore);
        record(values, copy.contender(), JIT, ProcessCpu.ownCompilerSeconds() - compilerBefore);
    }

    /**
     * The hand-run on Trino: the DAG's three statements once over Trino JDBC; compute = the Trino server's CPU,
     * {@link #READ_AFTER} after the last statement.
     */
    static void handRunTrino(BenchContext context, Copy copy, long trinoPid, Map<String, List<Double>> values)
            throws Exception {
        try (TrinoClient client = TrinoClient.open(context.lakehouse().catalogName())) {
            double trinoBefore = ProcessCpu.cpuSeconds(trinoPid);
            double compilerBefore = ProcessCpu.compilerSeconds(trinoPid);
            long start = System.nanoTime();
            // nothing else writes to this copy: a failed statement is a harness error, as the native hand-run's
            new TrinoDag(context.lakehouse()).run(client, copy.namespace(), TABLE).requireAllSucceeded();
            double wall = (System.nanoTime() - start) / 1e9;
            Settle.sleep(READ_AFTER);
            double trinoCpu = ProcessCpu.cpuSeconds(trinoPid) - trinoBefore;
            record(values, copy.contender(), "wall time", wall);
            record(values, copy.contender(), "Trino server CPU", trinoCpu);
            record(values, copy.contender(), "compute (Trino server + executor CPU)", trinoCpu);
            record(values, copy.contender(), JIT, ProcessCpu.compilerSeconds(trinoPid) - compilerBefore);
        }
    }

    private static double executorCompiler(BenchContext context) {
        return context.environment().servicePid("executor").map(ProcessCpu::compilerSeconds).orElse(Double.NaN);
    }

    private static double executorCpu(BenchContext context) {
        return context.environment().servicePid("executor").map(ProcessCpu::cpuSeconds).orElse(Double.NaN);
    }

    static void record(Map<String, List<Double>> values, String contender, String name, double value) {
        values.computeIfAbsent(contender + "|" + name, ignored -> new ArrayList<>()).add(value);
    }
}
