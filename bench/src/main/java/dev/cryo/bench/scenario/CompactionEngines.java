package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.CompactionFigures;
import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.domain.Series;
import dev.cryo.bench.domain.Statistics;
import dev.cryo.bench.domain.Target;
import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.Lakehouse;
import dev.cryo.bench.harness.NativeCompaction;
import dev.cryo.bench.harness.ProcessCpu;
import dev.cryo.contracts.TableId;
import dev.cryo.enginesql.EngineClient;
import dev.cryo.enginesql.spark.SparkConnectClient;
import dev.cryo.enginesql.trino.TrinoClient;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * Scenario 8 (issue 7): one table fragmented into many small Parquet files, copied file for file
 * before each contender's run, and compacted by the native engine (executor-svc's optimize steps in a
 * child JVM with -Xmx1g), Trino's {@code ALTER TABLE … EXECUTE optimize} and Spark's
 * {@code CALL system.rewrite_data_files}, in the same run, with the same target file size.
 */
public final class CompactionEngines implements Scenario {

    private static final Logger LOG = LoggerFactory.getLogger(CompactionEngines.class);
    static final String NATIVE = "native";
    static final String TRINO = "trino";
    static final String SPARK = "spark";
    static final String NO_TRINO = "not run: start with --with trino";
    static final String NO_SPARK = "not run: start with --with spark";

    @Override
    public int id() {
        return 8;
    }

    @Override
    public String title() {
        return "compaction engines: native vs Trino optimize vs Spark rewrite_data_files";
    }

    /** What the source table holds, as written. */
    record Source(Table table, long dataFiles, long dataBytes, long records, Fingerprint expected) {
        Source {
            requireNonNull(table, "table is null");
            requireNonNull(expected, "expected is null");
        }
    }

    /** One contender's run on its copy. */
    record EngineRun(double wallSeconds, double cpuSeconds, Double peakHeapMebibytes) {
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        int files = context.sizes().integer("engines.files");
        int partitions = context.sizes().integer("engines.partitions");
        int rowsPerFile = context.sizes().integer("engines.rows-per-file");
        int payloadChars = context.sizes().integer("engines.payload-chars");
        int filesPerCommit = context.sizes().integer("engines.files-per-commit");
        long target = context.sizes().longValue("engines.target-file-size-bytes");
        int trials = context.sizes().integer("engines.trials");
        Duration timeout = context.sizes().duration("engines.timeout");
        Lakehouse lakehouse = context.lakehouse();
        String namespace = context.namespace(id(), 0, "engines");
        lakehouse.createNamespace(namespace);
        // Cryo must never maintain these tables: each contender compacts its own copy
        context.api().pause(context.pattern(namespace), "CryoBench scenario 8: the engines compact these copies");

        List<String> engines = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if (trials != context.trials()) {
            notes.add(trials + " trial(s) (engines.trials), not the run's " + context.trials() + ": one 2 GiB trial of three "
                    + "engines takes long on this machine.");
        }
        engines.add(NATIVE);
        Optional<Long> trinoPid = context.trinoAvailable() ? serverPid(context, TRINO) : Optional.empty();
        trinoPid.ifPresentOrElse(pid -> engines.add(TRINO), () -> notes.add("Trino optimize: " + NO_TRINO));
        Optional<Long> sparkPid = serverPid(context, SPARK)
                .filter(pid -> portOpen(Integer.parseInt(System.getenv().getOrDefault("CRYO_SPARK_PORT", "15002"))));
        sparkPid.ifPresentOrElse(pid -> engines.add(SPARK), () -> notes.add("Spark rewrite_data_files: " + NO_SPARK));

        long buildStart = System.nanoTime();
        Source source = EngineTables.build(lakehouse, namespace, target, files, partitions, rowsPerFile, payloadChars, filesPerCommit);
        notes.add(String.format(Locale.ROOT, "Source table: %d data files, %.1f MiB of Parquet (%d rows) in %d day "
                        + "partitions, written in %.0f s; every contender's copy is this table's files, copied byte for "
                        + "byte just before its run.", source.dataFiles(), source.dataBytes() / CompactionFigures.BYTES_PER_MIB,
                source.records(), partitions, (System.nanoTime() - buildStart) / 1e9));
        LOG.info("scenario 8: source table of {} files, {} MiB", source.dataFiles(),
                Math.round(source.dataBytes() / CompactionFigures.BYTES_PER_MIB));
        List<String> fingerprintFailures = new ArrayList<>();
        Fingerprint sourceActual = Fingerprints.ofTable(source.table());
        if (!sourceActual.equals(source.expected())) {
            fingerprintFailures.add("source table: " + sourceActual + " read back, " + source.expected() + " written");
        }

        Map<String, List<Double>> values = new LinkedHashMap<>();
        try (TrinoClient trino = trinoPid.isPresent() ? trino() : null;
             SparkConnectClient spark = sparkPid.isPresent() ? spark() : null;
             NativeCompaction nativeEngine = NativeCompaction.start(context.environment().runtime().getParent(),
                     context.environment().runtime())) {
            for (int trial = 0; trial < trials; trial++) {
                // the order rotates, so that no engine always runs first (or last) on a noisy machine
                List<String> order = new ArrayList<>(engines);
                java.util.Collections.rotate(order, -trial);
                for (String engine : order) {
                    String name = engine + "_t" + (trial + 1);
                    Table copy = EngineTables.copy(lakehouse, source, namespace, name, target);
                    sync();
                    TableId tableId = lakehouse.id(namespace, name);
                    LOG.info("scenario 8 trial {}: {} compacts {} files", trial + 1, engine, source.dataFiles());
                    EngineRun run = switch (engine) {
                        case NATIVE -> runNative(nativeEngine, tableId, timeout);
                        case TRINO -> runStatements(trino, trinoPid.orElseThrow(), trinoStatements(tableId, target));
                        case SPARK -> runStatements(spark, sparkPid.orElseThrow(), sparkStatements(tableId, target));
                        default -> throw new IllegalStateException("Cannot run engine " + engine);
                    };
                    copy.refresh();
                    long filesAfter = EngineTables.dataFiles(copy);
                    Fingerprint after = Fingerprints.ofTable(copy);
                    if (!after.equals(source.expected())) {
                        fingerprintFailures.add("trial " + (trial + 1) + " " + engine + ": " + after + " after compaction, "
                                + source.expected() + " written");
                    }
                    record(values, engine, "wall time", run.wallSeconds());
                    record(values, engine, "input throughput", CompactionFigures.throughputMegabytesPerSecond(
                            source.dataBytes(), run.wallSeconds()));
                    record(values, engine, "CPU per GiB of input", CompactionFigures.cpuSecondsPerGibibyte(
                            run.cpuSeconds(), source.dataBytes()));
                    record(values, engine, "CPU", run.cpuSeconds());
                    record(values, engine, "data files before", source.dataFiles());
                    record(values, engine, "data files after", filesAfter);
                    if (run.peakHeapMebibytes() != null) {
                        record(values, engine, "peak heap", run.peakHeapMebibytes());
                    }
                    LOG.info("scenario 8 trial {}: {} {} -> {} files in {} s wall, {} CPU-s", trial + 1, engine,
                            source.dataFiles(), filesAfter, Math.round(run.wallSeconds()), Math.round(run.cpuSeconds()));
                    lakehouse.plainRegistry().catalog(lakehouse.catalogName())
                            .dropTable(TableIdentifier.of(namespace, name), true);
                }
            }
        } finally {
            lakehouse.plainRegistry().catalog(lakehouse.catalogName()).dropTable(TableIdentifier.of(namespace, EngineTables.SOURCE), true);
        }

        List<Metric> metrics = new ArrayList<>();
        values.forEach((key, perTrial) -> {
            String[] parts = key.split("\\|", 2);
            metrics.add(new Metric(parts[1], unit(parts[1]), parts[0], perTrial));
        });
        List<Metric> ratios = new ArrayList<>();
        List<Double> throughputOverSpark = ratio(values, "input throughput", SPARK);
        List<Double> wallOverTrino = ratio(values, "wall time", TRINO);
        for (String other : List.of(SPARK, TRINO)) {
            if (values.containsKey(other + "|wall time")) {
                String label = other.equals(SPARK) ? "Spark" : "Trino";
                ratios.add(new Metric("input throughput native ÷ " + label, "×", "native/" + other,
                        ratio(values, "input throughput", other)));
                ratios.add(new Metric("wall time native ÷ " + label, "×", "native/" + other, ratio(values, "wall time", other)));
                ratios.add(new Metric("CPU per GiB native ÷ " + label, "×", "native/" + other,
                        ratio(values, "CPU per GiB of input", other)));
            }
        }
        List<Target> targets = CompactionFigures.targets(throughputOverSpark, NO_SPARK, wallOverTrino, NO_TRINO,
                values.getOrDefault(NATIVE + "|peak heap", List.of()));
        List<Series> series = new ArrayList<>();
        for (String engine : engines) {
            List<Double> perTrial = values.get(engine + "|input throughput");
            List<Double> x = new ArrayList<>();
            for (int i = 1; i <= perTrial.size(); i++) {
                x.add((double) i);
            }
            series.add(new Series("input throughput per trial", engine, "trial", "MB/s of input", x, perTrial));
        }
        notes.add("Wall time: the native engine's optimize steps in a child JVM (-Xmx1g) that serves every trial, as "
                + "one executor service runs job after job (its first trial pays the JIT's warm-up, as the servers paid "
                + "theirs on their first statements), timed inside it from the first step to the last commit (JVM start-up "
                + "and catalog loading excluded); Trino's and Spark's "
                + "statements timed by the harness from submission to the end of the result. CPU: the child JVM's process "
                + "CPU over the steps; the Trino and Spark server processes' utime + stime from /proc/<pid>/stat over "
                + "their statements. Throughput: bytes of input Parquet ÷ wall time (MB = 10^6 bytes).");
        notes.add("The native engine's time includes what the executor's production path does beyond the rewrite: "
                + "reading back the rows of every rewritten partition (fingerprints before and after) and the tagged "
                + "commit. Trino and Spark do not verify their rewrites. The harness checks every copy after its run "
                + "against the fingerprint of the rows written (a mismatch fails the run); each copy's files are the "
                + "source's, copied byte for byte, and the source was fingerprinted once after it was written.");
        notes.add("Peak heap: the sum of the heap pools' peak usage in the native child JVM (-Xmx1g, serial GC), "
                + "reset before each trial's table. Trino and Spark run with ./cryo's heaps (Trino 2G, Spark 2g).");
        return new ScenarioResult(id(), title(), ScenarioResult.SCORED, context.sizes().withPrefix("engines."), metrics,
                ratios, targets, series, fingerprintFailures, notes);
    }

    private static EngineRun runNative(NativeCompaction nativeEngine, TableId table, Duration timeout)
            throws IOException, InterruptedException {
        NativeCompaction.Measurement measured = nativeEngine.run(table, timeout);
        return new EngineRun(measured.wallSeconds(), measured.cpuSeconds(),
                measured.peakHeapBytes() / CompactionFigures.BYTES_PER_MIB);
    }

    private static EngineRun runStatements(EngineClient client, long serverPid, List<String> statements) {
        double cpuBefore = ProcessCpu.cpuSeconds(serverPid);
        long start = System.nanoTime();
        client.execute("cryobench-" + UUID.randomUUID(), statements);
        double wall = (System.nanoTime() - start) / 1e9;
        double cpu = ProcessCpu.cpuSeconds(serverPid) - cpuBefore;
        if (Double.isNaN(cpu)) {
            throw new IllegalStateException("Cannot read the CPU time of server process " + serverPid + " from /proc");
        }
        return new EngineRun(wall, cpu, null);
    }

    /** What the executor's Trino renderer writes for a whole-table optimize with this target. */
    static List<String> trinoStatements(TableId table, long targetFileSizeBytes) {
        return List.of("SET SESSION \"" + table.catalog() + "\".target_max_file_size = '" + targetFileSizeBytes + "B'",
                "ALTER TABLE \"" + table.catalog() + "\".\"" + table.namespaceName() + "\".\"" + table.table()
                        + "\" EXECUTE optimize(file_size_threshold => '" + (targetFileSizeBytes / 4 * 3) + "B')");
    }

    /** What the executor's Spark renderer writes for a whole-table optimize with this target. */
    static List<String> sparkStatements(TableId table, long targetFileSizeBytes) {
        return List.of("CALL " + table.catalog() + ".system.rewrite_data_files(table => '`" + table.namespaceName()
                + "`.`" + table.table() + "`', options => map('min-input-files', '2', 'partial-progress.enabled', 'true', "
                + "'use-starting-sequence-number', 'true', 'target-file-size-bytes', '" + targetFileSizeBytes + "'))");
    }

    private static TrinoClient trino() {
        String port = System.getenv().getOrDefault("CRYO_TRINO_PORT", "8080");
        return new TrinoClient(new TrinoClient.Settings("jdbc:trino://127.0.0.1:" + port, "cryo-bench", "cryo-bench", null,
                Duration.ofHours(2)));
    }

    private static SparkConnectClient spark() {
        String port = System.getenv().getOrDefault("CRYO_SPARK_PORT", "15002");
        return new SparkConnectClient(new SparkConnectClient.Settings("sc://127.0.0.1:" + port, "cryo-bench",
                Duration.ofHours(2)));
    }

    /** Whether ./cryo started a Spark Connect server and it answers. */
    static boolean sparkRunning(BenchContext context) {
        return serverPid(context, SPARK).filter(pid -> portOpen(Integer.parseInt(
                System.getenv().getOrDefault("CRYO_SPARK_PORT", "15002")))).isPresent();
    }

    /** The pid that ./cryo infra up wrote for the engine's server, if that process runs. */
    private static Optional<Long> serverPid(BenchContext context, String engine) {
        return context.environment().enginePid(engine);
    }

    private static boolean portOpen(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Flushes the copies to disk, so that no contender pays for the previous one's write-back. */
    private static void sync() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("sync").inheritIO().start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException("Cannot flush the copies: sync exited with " + process.exitValue());
        }
    }

    private static List<Double> ratio(Map<String, List<Double>> values, String metric, String denominator) {
        List<Double> below = values.get(denominator + "|" + metric);
        if (below == null) {
            return List.of();
        }
        return Statistics.ratios(values.get(NATIVE + "|" + metric), below);
    }

    private static String unit(String metric) {
        return switch (metric) {
            case "wall time" -> "s";
            case "input throughput" -> "MB/s";
            case "CPU per GiB of input" -> "CPU-s/GiB";
            case "CPU" -> "CPU-s";
            case "peak heap" -> "MiB";
            default -> "files";
        };
    }

    private static void record(Map<String, List<Double>> values, String contender, String name, double value) {
        values.computeIfAbsent(contender + "|" + name, ignored -> new ArrayList<>()).add(value);
    }
}
