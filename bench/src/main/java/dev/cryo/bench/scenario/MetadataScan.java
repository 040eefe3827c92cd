package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.domain.Series;
import dev.cryo.bench.domain.Statistics;
import dev.cryo.bench.domain.Target;
import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.MetadataOnlyTable;
import dev.cryo.bench.harness.SyntheticLayout;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.event.TableTotals;
import dev.cryo.scanner.iceberg.ManifestCache;
import dev.cryo.scanner.iceberg.MemoryManifestCache;
import dev.cryo.scanner.iceberg.MetadataScanner;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Scenario 7 (issue 3): the scanner's metadata scan of a table with many data files. A metadata-only
 * table (see {@link MetadataOnlyTable}) is scanned by scanner-svc's own {@link MetadataScanner} with an
 * empty manifest cache (cold), then again after one more small commit with the same cache (rescan);
 * with Trino started, the same table's {@code "$files"} aggregate per partition is timed in the same
 * trial, before and after that commit.
 */
public final class MetadataScan implements Scenario {

    private static final Logger LOG = LoggerFactory.getLogger(MetadataScan.class);
    /** scanner-svc's defaults: cryo.scanner.manifest-read-threads, small-manifest-bytes, manifest-cache-entries. */
    private static final int MANIFEST_READ_THREADS = 2;
    private static final long SMALL_MANIFEST_BYTES = 2_097_152L;
    private static final int MANIFEST_CACHE_ENTRIES = 200_000;
    private static final long ONE_MORE_FILE_BYTES = 4L * 1024 * 1024;
    static final String NO_TRINO = "engine comparison not run: Trino not started (bench/run --with trino)";
    private static final String TABLE = "scan_meta";

    @Override
    public int id() {
        return 7;
    }

    @Override
    public String title() {
        return "scanner metadata scan: cold scan, rescan after one commit, vs Trino's $files aggregate";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        int files = context.sizes().integer("scan.files");
        int partitions = context.sizes().integer("scan.partitions");
        int commits = context.sizes().integer("scan.commits");
        boolean engine = context.trinoAvailable();
        List<Double> build = new ArrayList<>();
        List<Double> cold = new ArrayList<>();
        List<Double> coldScanOnly = new ArrayList<>();
        List<Double> rescanMillis = new ArrayList<>();
        List<Double> coldRead = new ArrayList<>();
        List<Double> rescanRead = new ArrayList<>();
        List<Double> rescanCached = new ArrayList<>();
        List<Double> engineCold = new ArrayList<>();
        List<Double> engineAfterCommitMillis = new ArrayList<>();
        List<Double> mismatches = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        ExecutorService readers = Executors.newFixedThreadPool(MANIFEST_READ_THREADS);
        try (Connection trino = engine ? trino(context) : null) {
            for (int trial = 0; trial < context.trials(); trial++) {
                String namespace = context.namespace(id(), trial, "cryo");
                context.lakehouse().createNamespace(namespace);
                String pause = context.api().pause(context.pattern(namespace), "CryoBench: scenario 7's metadata-only table");
                SyntheticLayout layout = new SyntheticLayout(files, partitions, commits, BenchContext.seed(trial, 0));
                Table created = context.lakehouse().create(namespace, TABLE, context.sizes().longValue("target-file-size-bytes"), false);
                long start = System.nanoTime();
                new MetadataOnlyTable(created, layout).build();
                build.add(seconds(start));
                LOG.info("scenario 7 trial {}: built {} files in {} partitions, {} commits in {} s", trial + 1, files,
                        partitions, commits, String.format("%.1f", build.get(trial)));
                TableId id = context.lakehouse().id(namespace, TABLE);
                long expectedBytes = layout.totalBytes();
                long expectedRecords = layout.totalRecords();

                MetadataScanner scanner = new MetadataScanner(
                        new MemoryManifestCache(ManifestCache.none(), MANIFEST_CACHE_ENTRIES), readers,
                        SMALL_MANIFEST_BYTES, Clock.systemUTC());
                // timed as the scanner service does it: load the table from the catalog, then scan
                start = System.nanoTime();
                TableScanned first = scanner.scan(id, context.lakehouse().load(namespace, TABLE, false), null);
                cold.add(seconds(start));
                coldScanOnly.add(first.scanDuration().toNanos() / 1e9);
                coldRead.add((double) first.counters().manifestsRead());
                int wrong = check(notes, trial, "Cryo's cold scan", first.totals(), files, partitions, expectedBytes,
                        expectedRecords);
                if (engine) {
                    start = System.nanoTime();
                    Aggregate aggregate = filesAggregate(trino, namespace);
                    engineCold.add(seconds(start));
                    wrong += check(notes, trial, "Trino's $files aggregate", aggregate, files, partitions, expectedBytes,
                            expectedRecords);
                }

                long added = new MetadataOnlyTable(created, layout).appendOne(0, ONE_MORE_FILE_BYTES);
                start = System.nanoTime();
                TableScanned again = scanner.scan(id, context.lakehouse().load(namespace, TABLE, false), null);
                rescanMillis.add(seconds(start) * 1000);
                rescanRead.add((double) again.counters().manifestsRead());
                rescanCached.add((double) again.counters().manifestsCached());
                wrong += check(notes, trial, "Cryo's rescan", again.totals(), files + 1, partitions,
                        expectedBytes + ONE_MORE_FILE_BYTES, expectedRecords + added);
                if (engine) {
                    start = System.nanoTime();
                    Aggregate aggregate = filesAggregate(trino, namespace);
                    engineAfterCommitMillis.add(seconds(start) * 1000);
                    wrong += check(notes, trial, "Trino's $files aggregate after the commit", aggregate, files + 1,
                            partitions, expectedBytes + ONE_MORE_FILE_BYTES, expectedRecords + added);
                }
                mismatches.add((double) wrong);
                LOG.info("scenario 7 trial {}: cold {} s, rescan {} ms{}", trial + 1, String.format("%.3f", cold.get(trial)),
                        String.format("%.1f", rescanMillis.get(trial)), engine
                                ? ", Trino " + String.format("%.3f", engineCold.get(trial)) + " s" : "");
                // out of the catalog, so that no sweep of Cryo's scanner keeps scanning it; its metadata files stay
                context.lakehouse().plainRegistry().catalog(context.lakehouse().catalogName())
                        .dropTable(TableIdentifier.of(namespace, TABLE), false);
                context.api().resume(pause);
            }
        } finally {
            readers.shutdownNow();
        }
        return result(context, engine, build, cold, coldScanOnly, rescanMillis, coldRead, rescanRead, rescanCached,
                engineCold, engineAfterCommitMillis, mismatches, notes);
    }

    private ScenarioResult result(BenchContext context, boolean engine, List<Double> build, List<Double> cold,
                                  List<Double> coldScanOnly, List<Double> rescanMillis, List<Double> coldRead,
                                  List<Double> rescanRead, List<Double> rescanCached, List<Double> engineCold,
                                  List<Double> engineAfterCommitMillis, List<Double> mismatches, List<String> notes) {
        List<Metric> metrics = new ArrayList<>(List.of(
                new Metric("cold scan (first look at the new table)", "s", "cryo", cold),
                new Metric("scan after one commit", "ms", "cryo", rescanMillis),
                new Metric("cold scan without the table load (the scan's own duration)", "s", "cryo", coldScanOnly),
                new Metric("manifests read by the cold scan", "", "cryo", coldRead),
                new Metric("manifests read by the rescan", "", "cryo", rescanRead),
                new Metric("manifests from the cache in the rescan", "", "cryo", rescanCached),
                new Metric("building the metadata-only table (harness)", "s", "-", build),
                new Metric("totals that differ from the table's", "", "-", mismatches)));
        List<Metric> ratios = new ArrayList<>();
        List<Series> series = new ArrayList<>();
        series.add(perTrial("Cryo cold scan", cold));
        series.add(perTrial("Cryo rescan after one commit", rescanMillis.stream().map(ms -> ms / 1000).toList()));
        List<Target> targets = new ArrayList<>(List.of(
                Target.atMost("cold scan < 5 s", cold, 5.0, " s"),
                Target.atMost("rescan after one commit < 200 ms", rescanMillis, 200.0, " ms"),
                Target.atMost("every total of every scan equals the table's", mismatches, 0.0, "")));
        String status = ScenarioResult.SCORED;
        if (engine) {
            metrics.add(1, new Metric("cold scan (first look at the new table)", "s", "trino", engineCold));
            metrics.add(3, new Metric("scan after one commit", "ms", "trino", engineAfterCommitMillis));
            List<Double> coldRatio = Statistics.ratios(cold, engineCold);
            List<Double> rescanRatio = Statistics.ratios(rescanMillis, engineAfterCommitMillis);
            ratios.add(new Metric("cold scan ÷ Trino's $files aggregate", "×", "cryo/trino", coldRatio));
            ratios.add(new Metric("rescan ÷ Trino's $files aggregate after the commit", "×", "cryo/trino", rescanRatio));
            series.add(perTrial("Trino $files aggregate (cold)", engineCold));
            series.add(new Series("cold scan ÷ Trino", "Cryo ÷ Trino", "trial", "ratio", trials(coldRatio.size()), coldRatio));
            targets.add(Target.atMost("cold scan ≤ 0.5 × Trino's $files aggregate", coldRatio, 0.5, "×"));
            notes.add("Trino: `SELECT partition, count(*), sum(file_size_in_bytes), sum(record_count) FROM "
                    + "\"<namespace>\".\"scan_meta$files\" GROUP BY partition` over JDBC, all rows read, once on the new "
                    + "table right after Cryo's cold scan (its first look at the table) and once after the commit; the "
                    + "connection is opened and warmed with SELECT 1 before the first trial.");
        } else {
            status = ScenarioResult.SCORED + "; " + NO_TRINO;
            targets.add(Target.notEvaluated(Target.Rule.EVERY_TRIAL, "cold scan ≤ 0.5 × Trino's $files aggregate", NO_TRINO));
            notes.add(NO_TRINO + ": only Cryo's times are measured.");
        }
        notes.add("The table is metadata-only: data-file entries with sizes, record counts, day partitions and column "
                + "metrics, appended in scan.commits fast appends (one manifest each), no Parquet behind them; the scanner "
                + "and Trino's $files read only metadata. Files are in time order (each commit covers consecutive days), "
                + "sizes log-uniform between 64 KiB and 256 MiB.");
        notes.add("Cryo: scanner-svc's MetadataScanner with its defaults (2 manifest-read threads, in-memory manifest cache "
                + "in front of no database cache), in the harness JVM. Cold = catalog load + scan with a new cache; rescan = "
                + "catalog load + scan with the same cache after one more fast append of one 4 MiB file. The JVM is warm "
                + "after trial 1 and the manifests were just written (in the page cache) for both contenders.");
        return new ScenarioResult(id(), title(), status, context.sizes().withPrefix("scan."), metrics, ratios, targets,
                series, List.of(), notes);
    }

    /** Compares a scan's totals with the table's; returns how many differ and says which in the notes. */
    private static int check(List<String> notes, int trial, String who, TableTotals totals, long files, long partitions,
                             long bytes, long records) {
        return check(notes, trial, who, new Aggregate(totals.partitions(), totals.dataFiles(), totals.dataBytes(),
                totals.records()), files, partitions, bytes, records);
    }

    private static int check(List<String> notes, int trial, String who, Aggregate found, long files, long partitions,
                             long bytes, long records) {
        Aggregate expected = new Aggregate(partitions, files, bytes, records);
        if (found.equals(expected)) {
            return 0;
        }
        notes.add("trial " + (trial + 1) + ": " + who + " found " + found + ", the table has " + expected);
        return 1;
    }

    /** Per-partition counts and sums of the $files metadata table, added up. */
    record Aggregate(long partitions, long files, long bytes, long records) {
    }

    private static Aggregate filesAggregate(Connection trino, String namespace) throws SQLException {
        String sql = "SELECT partition, count(*), sum(file_size_in_bytes), sum(record_count) FROM \"" + namespace
                + "\".\"" + TABLE + "$files\" GROUP BY partition";
        long partitions = 0;
        long files = 0;
        long bytes = 0;
        long records = 0;
        try (Statement statement = trino.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                partitions++;
                files += rows.getLong(2);
                bytes += rows.getLong(3);
                records += rows.getLong(4);
            }
        }
        return new Aggregate(partitions, files, bytes, records);
    }

    private static Connection trino(BenchContext context) throws SQLException {
        String port = System.getenv().getOrDefault("CRYO_TRINO_PORT", "8080");
        Properties properties = new Properties();
        properties.setProperty("user", "cryo-bench");
        Connection connection = DriverManager.getConnection("jdbc:trino://127.0.0.1:" + port + "/"
                + context.lakehouse().catalogName(), properties);
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("SELECT 1")) {
            rows.next();
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    private static Series perTrial(String name, List<Double> seconds) {
        return new Series("scan times per trial", name, "trial", "seconds", trials(seconds.size()), seconds);
    }

    private static List<Double> trials(int count) {
        List<Double> x = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            x.add((double) i);
        }
        return x;
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
