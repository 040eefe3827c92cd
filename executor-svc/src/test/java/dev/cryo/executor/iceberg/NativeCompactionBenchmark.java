package dev.cryo.executor.iceberg;

import com.sun.management.OperatingSystemMXBean;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.testsupport.Infrastructure;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * Native compaction throughput: fragments a day-partitioned table into many small Parquet files
 * and compacts it through {@link NativeEngine}, one step per partition or several partitions per
 * step as the executor receives a chunk (the last argument; the production path:
 * deletes applied, fingerprints read back, tagged commits). Prints input MB/s, CPU-seconds per
 * GiB of input and the peak heap. A {@code main}, not a test: Surefire does not run it.
 *
 * <pre>
 * ./cryo infra up
 * ./mvnw -B -q -pl executor-svc test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
 * java -Xmx1g -cp "executor-svc/target/test-classes:executor-svc/target/classes:$(cat executor-svc/target/cp.txt)" \
 *      dev.cryo.executor.iceberg.NativeCompactionBenchmark [input MiB, default 256] [files, default 2000] [days, default 4] \
 *      [partitions per step, default 1] [rounds, default 1]
 * </pre>
 *
 * Each round fragments a new table and compacts it in the same JVM: the first round pays the JIT's
 * warm-up, the later ones show the long-running executor.
 *
 * The native engine alone, for profiling and quick before/after checks; the comparison with
 * Trino's optimize and Spark's rewrite_data_files on copies of one table is CryoBench's scenario 8
 * ({@code bench/run --full --with trino --with spark --scenario 8}).
 */
public final class NativeCompactionBenchmark {

    public static void main(String[] args) throws Exception {
        long inputMiB = args.length > 0 ? Long.parseLong(args[0]) : 256;
        int files = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        int days = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        int partitionsPerStep = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 1;
        Path warehouse = Files.createTempDirectory("cryo-benchmark");
        String catalogName = "bench_" + UUID.randomUUID().toString().substring(0, 8);
        try (CatalogRegistry registry = CatalogRegistry.create(Map.of(catalogName, LocalCatalogs.jdbc(
                Infrastructure.jdbcUrl(), Infrastructure.dbUser(), Infrastructure.dbPassword(), "executor_benchmark",
                warehouse)))) {
            ((SupportsNamespaces) registry.catalog(catalogName)).createNamespace(Namespace.of("bench"));
            NativeEngine engine = new NativeEngine(registry, TestTables.settings(), JobRecords.NONE, Clock.systemUTC());
            for (int round = 1; round <= rounds; round++) {
                System.out.printf(Locale.ROOT, "round %d of %d%n", round, rounds);
                compact(registry, engine, catalogName, "events_" + round, inputMiB, files, days, partitionsPerStep);
            }
        }
    }

    /** Fragments one new table and compacts it, in this JVM (later rounds show a warmed-up executor). */
    private static void compact(CatalogRegistry registry, NativeEngine engine, String catalogName, String name,
                                long inputMiB, int files, int days, int partitionsPerStep) {
        Table table = registry.catalog(catalogName).createTable(TableIdentifier.of("bench", name),
                SampleTables.EVENTS, PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of(TableProperties.FORMAT_VERSION, "2",
                        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, String.valueOf(128L * 1024 * 1024)));
        long fragmentStart = System.nanoTime();
        fragment(table, inputMiB, files, days);
        table.refresh();
        List<DataFile> before = TestTables.dataFiles(table);
        long inputBytes = before.stream().mapToLong(DataFile::fileSizeInBytes).sum();
        System.out.printf(Locale.ROOT, "fragmented: %d files, %.1f MiB in %d partitions (%.0f s)%n", before.size(),
                inputBytes / 1048576.0, days, (System.nanoTime() - fragmentStart) / 1e9);
        Fingerprint fingerprint = Fingerprints.ofTable(table);

        TableId tableId = TableId.of(catalogName, "bench", name);
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.gc();
        resetPeaks();
        long cpuStart = os.getProcessCpuTime();
        long wallStart = System.nanoTime();
        List<String> seen = new ArrayList<>();
        List<PartitionPredicate> partitions = new ArrayList<>();
        for (DataFile file : before) {
            if (!seen.contains(file.partition().toString())) {
                seen.add(file.partition().toString());
                partitions.add(TestTables.predicateOf(table, file));
            }
        }
        int chunk = 0;
        long written = 0;
        for (int start = 0; start < partitions.size(); start += partitionsPerStep) {
            StepResult result = engine.run(new StepRequest(tableId, "bench-" + UUID.randomUUID(),
                    StepKey.chunk(Operation.OPTIMIZE, chunk++),
                    partitions.subList(start, Math.min(partitions.size(), start + partitionsPerStep)),
                    OperationParameters.NONE));
            written += result.after().dataFiles();
        }
        double wallSeconds = (System.nanoTime() - wallStart) / 1e9;
        double cpuSeconds = (os.getProcessCpuTime() - cpuStart) / 1e9;
        long peakHeap = peakHeap();
        table.refresh();
        boolean same = Fingerprints.ofTable(table).equals(fingerprint);
        double mib = inputBytes / 1048576.0;
        System.out.printf(Locale.ROOT, "native optimize: %d files -> %d files, %.1f MiB in %.1f s wall, %.1f s CPU%n",
                before.size(), written, mib, wallSeconds, cpuSeconds);
        System.out.printf(Locale.ROOT, "throughput: %.1f MB/s of input, %.1f CPU-s per GiB, peak heap %.0f MiB"
                + " (max %d MiB), fingerprint unchanged: %s%n", inputBytes / 1e6 / wallSeconds,
                cpuSeconds / (inputBytes / 1073741824.0), peakHeap / 1048576.0,
                Runtime.getRuntime().maxMemory() / 1048576, same);
    }

    /** {@code files} small files (one append commit per 200 files) of random event rows, spread over the days. */
    private static void fragment(Table table, long inputMiB, int files, int days) {
        Random random = new Random(1);
        int batches = Math.max(1, files / days);
        long bytesPerBatch = inputMiB * 1048576 / batches;
        int rowsPerBatch = (int) Math.max(days, bytesPerBatch / 230);
        TableWriter writer = new TableWriter(table);
        List<DataFile> pending = new ArrayList<>();
        for (int batch = 0; batch < batches; batch++) {
            List<Record> rows = SampleTables.events(random, (long) batch * rowsPerBatch, rowsPerBatch,
                    TestTables.START, Duration.ofDays(days), 16, 200);
            pending.addAll(writer.writeDataFiles(rows));
            if (pending.size() >= 200 || batch == batches - 1) {
                table.refresh();
                AppendFiles append = table.newAppend();
                pending.forEach(append::appendFile);
                append.commit();
                pending.clear();
            }
        }
    }

    private static void resetPeaks() {
        ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    private static long peakHeap() {
        return ManagementFactory.getMemoryPoolMXBeans().stream().filter(pool -> pool.getType() == MemoryType.HEAP)
                .mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
    }

    private NativeCompactionBenchmark() {
    }
}
