package dev.cryo.bench.harness;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryo.contracts.TableId;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Scenario 8's native contender: executor-svc's {@link dev.cryo.executor.iceberg.NativeEngine} optimize
 * steps (the production path: deletes applied, fingerprints read back, tagged commits) in a child JVM
 * capped at {@code -Xmx1g}, so that its peak heap is the executor's and not the harness's.
 *
 * <p>One child serves every trial of a run, as one executor service runs job after job: the first
 * trial pays the JIT's warm-up, as Trino's and Spark's long-running servers paid theirs on their
 * first statements. For each table the child measures its own wall and CPU time around the steps only
 * (not catalog loading) and the sum of the heap pools' peaks (reset before each table), and writes
 * them as JSON to the file the harness named.
 */
public final class NativeCompaction implements AutoCloseable {

    /** The executor's heap cap of the issue: the native run must fit in it. */
    public static final String MAX_HEAP = "-Xmx1g";
    private static final Duration POLL = Duration.ofMillis(200);

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

    private final Process process;
    private final Writer requests;
    private final Path workDirectory;

    private NativeCompaction(Process process, Path workDirectory) {
        this.process = process;
        this.requests = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.workDirectory = workDirectory;
    }

    /** Starts the child JVM; it loads the catalog and then waits for tables to compact. */
    public static NativeCompaction start(Path cryoHome, Path workDirectory) throws IOException {
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
        command.add(cryoHome.toString());
        Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        return new NativeCompaction(process, workDirectory);
    }

    /** Compacts one table in the child and returns what it measured; a failed step or a dead child is an error. */
    public Measurement run(TableId table, Duration timeout) throws IOException, InterruptedException {
        Path result = workDirectory.resolve("native-compaction-" + UUID.randomUUID() + ".json");
        try {
            requests.write(table + "\t" + result + "\n");
            requests.flush();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!Files.exists(result)) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("Cannot compact " + table + " natively: the child JVM exited with "
                            + process.exitValue() + " (its log is above)");
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Cannot compact " + table + " natively: the child JVM ran longer than "
                            + timeout + " (set engines.timeout)");
                }
                Thread.sleep(POLL.toMillis());
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

    /** Ends the child: no more tables; it exits when its input closes. */
    @Override
    public void close() throws IOException, InterruptedException {
        try {
            requests.close();
        } catch (IOException e) {
            // the child is gone already
        }
        if (!process.waitFor(1, TimeUnit.MINUTES)) {
            process.destroyForcibly();
        }
    }

    /** The child: {@code <cryo home>}; reads {@code <table id> TAB <result file>} lines until its input ends. */
    public static void main(String[] args) throws IOException {
        Environment environment = Environment.fromSystem(Path.of(args[0]));
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (Lakehouse lakehouse = new Lakehouse(environment)) {
            NativeDag dag = new NativeDag(lakehouse.plainRegistry());
            for (String line = input.readLine(); line != null; line = input.readLine()) {
                String[] request = line.split("\t", 2);
                TableId table = TableId.parse(request[0]);
                // start from a settled heap, so that the peak is this compaction's
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
                Measurement measurement = new Measurement(wallSeconds, cpuSeconds, peakHeap,
                        Runtime.getRuntime().maxMemory(), run.stepsCommitted(), run.errors());
                // written aside and moved, so that the harness never reads half a file
                Path result = Path.of(request[1]);
                Path partial = result.resolveSibling(result.getFileName() + ".part");
                new ObjectMapper().writeValue(partial.toFile(), measurement);
                Files.move(partial, result, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        System.exit(0);
    }
}
