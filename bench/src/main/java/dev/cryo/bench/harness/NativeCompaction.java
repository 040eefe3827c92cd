package dev.cryo.bench.harness;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryo.contracts.TableId;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Scenario 8's native contender: executor-svc's {@link dev.cryo.executor.iceberg.NativeEngine} optimize
 * steps (the production path: deletes applied, fingerprints read back, tagged commits) in a child JVM
 * capped at {@code -Xmx1g}, so that its peak heap is the executor's and not the harness's. The child
 * measures its own wall and CPU time around the steps only (not JVM start-up or catalog loading) and
 * the sum of the heap pools' peaks, and writes them as JSON.
 */
public final class NativeCompaction {

    /** The executor's heap cap of the issue: the native run must fit in it. */
    public static final String MAX_HEAP = "-Xmx1g";

    /**
     * What the child measured.
     *
     * @param wallSeconds wall time of the optimize steps
     * @param cpuSeconds CPU time of the child JVM during the steps (all threads, GC included)
     * @param peakHeapBytes sum of the heap pools' peak usage during the steps
     * @param maxHeapBytes the child's heap limit
     * @param stepsCommitted optimize steps that committed a snapshot
     * @param errors failed steps, with their messages
     */
    public record Measurement(double wallSeconds, double cpuSeconds, long peakHeapBytes, long maxHeapBytes,
                              int stepsCommitted, List<String> errors) {

        public Measurement {
            errors = List.copyOf(requireNonNull(errors, "errors is null"));
        }
    }

    /** Runs the child JVM on one table and returns what it measured; a failed step or exit is an error. */
    public static Measurement run(TableId table, Path cryoHome, Path workDirectory, Duration timeout)
            throws IOException, InterruptedException {
        Path result = Files.createTempFile(workDirectory, "native-compaction-", ".json");
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        // the harness's logging and headless settings, but the executor's heap cap instead of the harness's
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("-D") || argument.startsWith("-XX:+Use")) {
                command.add(argument);
            }
        }
        command.add(MAX_HEAP);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(NativeCompaction.class.getName());
        command.add(table.toString());
        command.add(cryoHome.toString());
        command.add(result.toString());
        Process process = new ProcessBuilder(command).inheritIO().start();
        try {
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("Cannot compact " + table + " natively: the child JVM ran longer than "
                        + timeout + " (set engines.timeout)");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("Cannot compact " + table + " natively: the child JVM exited with "
                        + process.exitValue() + " (its log is above)");
            }
            Measurement measurement = new ObjectMapper().readValue(result.toFile(), Measurement.class);
            if (!measurement.errors().isEmpty()) {
                throw new IllegalStateException("Cannot compact " + table + " natively: " + measurement.errors());
            }
            return measurement;
        } finally {
            Files.deleteIfExists(result);
        }
    }

    /** The child: {@code <table id> <cryo home> <result file>}. */
    public static void main(String[] args) throws IOException {
        TableId table = TableId.parse(args[0]);
        Environment environment = Environment.fromSystem(Path.of(args[1]));
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Measurement measurement;
        try (Lakehouse lakehouse = new Lakehouse(environment)) {
            NativeDag dag = new NativeDag(lakehouse.plainRegistry());
            // start from a settled heap, so that the peak is the compaction's
            System.gc();
            ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
            long cpuStart = os.getProcessCpuTime();
            long wallStart = System.nanoTime();
            NativeDag.TableRun run = dag.optimize(table);
            double wallSeconds = (System.nanoTime() - wallStart) / 1e9;
            double cpuSeconds = (os.getProcessCpuTime() - cpuStart) / 1e9;
            long peakHeap = ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(pool -> pool.getType() == MemoryType.HEAP)
                    .mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
            measurement = new Measurement(wallSeconds, cpuSeconds, peakHeap, Runtime.getRuntime().maxMemory(),
                    run.stepsCommitted(), run.errors());
        }
        new ObjectMapper().writeValue(Path.of(args[2]).toFile(), measurement);
        System.exit(0);
    }

    private NativeCompaction() {
    }
}
