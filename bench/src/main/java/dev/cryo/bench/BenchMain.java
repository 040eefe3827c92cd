package dev.cryo.bench;

import dev.cryo.contracts.kafka.KafkaClientSecurity;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.cryo.bench.domain.JobScoreTally;
import dev.cryo.bench.domain.RunResult;
import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.CryoApi;
import dev.cryo.bench.harness.Environment;
import dev.cryo.bench.harness.EventTap;
import dev.cryo.bench.harness.Lakehouse;
import dev.cryo.bench.harness.ScoredJobs;
import dev.cryo.bench.harness.Sizes;
import dev.cryo.bench.report.ReportWriter;
import dev.cryo.bench.scenario.Scenario;
import dev.cryo.bench.scenario.Scenarios;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * bench/run's Java side. {@code run --mode quick|full [--scenario N]... [--set key=value]...
 * --bench-dir DIR --cryo-home DIR [--trino]} runs scenarios against the running Cryo, writes
 * results/&lt;timestamp&gt;-&lt;mode&gt;.json and regenerates REPORT.md; {@code report --bench-dir DIR}
 * only regenerates the report. Exit status: 0 done, 1 a fingerprint mismatch, 2 a harness error.
 */
public final class BenchMain {

    /** PROTOCOL.md's version; its "Versions" section says what each one changed. */
    public static final int PROTOCOL = 12;
    private static final Logger LOG = LoggerFactory.getLogger(BenchMain.class);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        int status;
        try {
            status = run(args);
        } catch (RuntimeException | IOException e) {
            LOG.error("bench failed: {}", e.getMessage(), e);
            status = 2;
        }
        System.exit(status);
    }

    /** The command line: {@code run|report [--mode quick|full] [--scenario N]... [--set key=value]... [--bench-dir D] [--cryo-home D] [--trino]}. */
    record Options(String command, String mode, Path benchDirectory, Path cryoHome, boolean trino, List<Integer> only,
                   Map<String, String> overrides) {

        static Options parse(String[] args) {
            if (args.length == 0) {
                throw new IllegalArgumentException("Cannot run: give 'run' or 'report'");
            }
            String mode = "quick";
            Path benchDirectory = Path.of("bench");
            Path cryoHome = Path.of(".");
            boolean trino = false;
            List<Integer> only = new ArrayList<>();
            Map<String, String> overrides = new LinkedHashMap<>();
            for (int i = 1; i < args.length; i++) {
                switch (args[i]) {
                    case "--mode" -> mode = args[++i];
                    case "--scenario" -> only.add(Integer.parseInt(args[++i]));
                    case "--set" -> {
                        String[] pair = args[++i].split("=", 2);
                        if (pair.length != 2) {
                            throw new IllegalArgumentException("Cannot read --set " + args[i] + ": write key=value");
                        }
                        overrides.put(pair[0], pair[1]);
                    }
                    case "--bench-dir" -> benchDirectory = Path.of(args[++i]);
                    case "--cryo-home" -> cryoHome = Path.of(args[++i]);
                    case "--trino" -> trino = true;
                    default -> throw new IllegalArgumentException("Cannot read option " + args[i]);
                }
            }
            if (!args[0].equals("run") && !args[0].equals("report")) {
                throw new IllegalArgumentException("Cannot run command " + args[0] + ": give 'run' or 'report'");
            }
            if (!mode.equals("quick") && !mode.equals("full")) {
                throw new IllegalArgumentException("Cannot run mode " + mode + ": quick or full");
            }
            return new Options(args[0], mode, benchDirectory, cryoHome, trino, only, overrides);
        }
    }

    static int run(String[] args) throws IOException {
        Options options = Options.parse(args);
        if (options.command().equals("report")) {
            writeReport(options.benchDirectory());
            return 0;
        }
        boolean full = options.mode().equals("full");
        Sizes sizes = new Sizes(full, options.overrides());
        int trials = full ? 3 : 1;
        Instant started = Instant.now();
        Map<String, String> machine = Machine.describe();
        machine.put("load average at start", Machine.loadAverage());
        Environment environment = Environment.fromSystem(options.cryoHome());
        String runId = Long.toString(started.getEpochSecond() % 1_000_000, 36);
        List<ScenarioResult> results;
        try (Lakehouse lakehouse = new Lakehouse(environment);
             EventTap tap = new EventTap(environment.kafkaBootstrap(),
                     KafkaClientSecurity.localAdministrator(environment.runtime()), environment.catalogName() + ".b" + runId + "_")) {
            CryoApi api = new CryoApi(environment);
            BenchContext context = new BenchContext(environment, lakehouse, api, tap, sizes, trials, runId, options.trino());
            // a kill (or an error) between a scenario's policy and its clean-up leaves Cryo maintaining that namespace
            Thread abandon = new Thread(() -> api.pauseAbandoned().forEach(pattern ->
                    System.err.println("CryoBench stopped early: paused " + pattern)), "bench-pause-abandoned");
            Runtime.getRuntime().addShutdownHook(abandon);
            results = runScenarios(context, options.only(), trials);
        }
        machine.put("load average at end", Machine.loadAverage());
        RunResult run = new RunResult(PROTOCOL, options.mode(), trials, started, Instant.now(), machine, versions(), results);
        Path resultsDirectory = options.benchDirectory().resolve("results");
        Files.createDirectories(resultsDirectory);
        Path file = resultsDirectory.resolve(STAMP.format(started) + "-" + options.mode() + ".json");
        mapper().writeValue(file.toFile(), run);
        LOG.info("results: {}", file);
        Path report = writeReport(options.benchDirectory());
        LOG.info("report: {}", report);
        if (run.hasFingerprintFailures()) {
            LOG.error("a lost or changed row fails the run");
            return 1;
        }
        return run.hasFailedScenarios() ? 2 : 0;
    }

    /** Every scenario asked for (all when none is), in order; a scenario that throws is recorded as failed. */
    private static List<ScenarioResult> runScenarios(BenchContext context, List<Integer> only, int trials) {
        List<ScenarioResult> results = new ArrayList<>();
        for (Scenario scenario : Scenarios.all()) {
            if (!only.isEmpty() && !only.contains(scenario.id())) {
                continue;
            }
            LOG.info("scenario {}: {} ({} trial(s))", scenario.id(), scenario.title(), trials);
            long scenarioStart = System.nanoTime();
            ScenarioResult result;
            try {
                result = scenario.run(context);
            } catch (Exception e) {
                LOG.error("scenario {} failed: {}", scenario.id(), e.getMessage(), e);
                result = ScenarioResult.failed(scenario.id(), scenario.title(), e.getMessage(), List.of(stack(e)));
            }
            result = withJobScores(context, result);
            LOG.info("scenario {}: {} in {} s", scenario.id(), result.status(), (System.nanoTime() - scenarioStart) / 1_000_000_000L);
            result.fingerprintFailures().forEach(failure -> LOG.error("FINGERPRINT MISMATCH: {}", failure));
            results.add(result);
        }
        return results;
    }

    /**
     * The result with the scores of Cryo's jobs on the scenario's tables, once they arrived (ScoredJobs). A tap that
     * fails here leaves them unmeasured rather than losing the run's results.
     */
    private static ScenarioResult withJobScores(BenchContext context, ScenarioResult result) {
        try {
            ScenarioResult scored = result.withJobScores(ScoredJobs.await(context, result.id()));
            JobScoreTally jobs = scored.jobScores();
            LOG.info("scenario {}: Cryo's jobs: {} finished, {} reached, {} short, {} no-op, {} ungraded, {} unscored",
                    result.id(), jobs.jobs(), jobs.reached(), jobs.shortOfExpected(), jobs.noOp(), jobs.ungraded(),
                    jobs.unscored());
            return scored;
        } catch (RuntimeException e) {
            LOG.error("scenario {}: cannot collect the scores of Cryo's jobs: {}", result.id(), e.getMessage(), e);
            return result;
        }
    }

    static Path writeReport(Path benchDirectory) throws IOException {
        List<RunResult> runs = new ArrayList<>();
        newest(benchDirectory, "full").ifPresent(runs::add);
        newest(benchDirectory, "quick").ifPresent(runs::add);
        return new ReportWriter(benchDirectory).write(runs);
    }

    /**
     * The newest run of a mode; a scenario it did not run (bench/run --scenario N) is taken from the newest earlier run
     * of that mode that has it, with a note saying which, so that one scenario's run does not drop the others from the
     * report.
     */
    private static Optional<RunResult> newest(Path benchDirectory, String mode) throws IOException {
        Path directory = benchDirectory.resolve("results");
        if (!Files.isDirectory(directory)) {
            return Optional.empty();
        }
        List<Path> newestFirst;
        try (Stream<Path> files = Files.list(directory)) {
            newestFirst = files.filter(path -> path.getFileName().toString().endsWith("-" + mode + ".json"))
                    .sorted(java.util.Comparator.reverseOrder()).toList();
        }
        if (newestFirst.isEmpty()) {
            return Optional.empty();
        }
        RunResult newest = mapper().readValue(newestFirst.get(0).toFile(), RunResult.class);
        Map<Integer, ScenarioResult> byId = new TreeMap<>();
        newest.scenarios().forEach(scenario -> byId.put(scenario.id(), scenario));
        int scenarios = Scenarios.all().size();
        for (Path older : newestFirst.subList(1, newestFirst.size())) {
            if (byId.size() >= scenarios) {
                break;
            }
            RunResult earlier = mapper().readValue(older.toFile(), RunResult.class);
            for (ScenarioResult scenario : earlier.scenarios()) {
                byId.computeIfAbsent(scenario.id(), id -> fromEarlierRun(scenario, older, earlier));
            }
        }
        return Optional.of(new RunResult(newest.protocol(), newest.mode(), newest.trials(), newest.startedAt(),
                newest.finishedAt(), newest.machine(), newest.versions(), List.copyOf(byId.values())));
    }

    private static ScenarioResult fromEarlierRun(ScenarioResult scenario, Path file, RunResult run) {
        List<String> notes = new ArrayList<>();
        notes.add("From the earlier " + run.mode() + " run " + file.getFileName() + " (protocol " + run.protocol()
                + ", started " + run.startedAt() + ", " + run.trials() + " trial(s)): the newest " + run.mode()
                + " run did not include this scenario.");
        notes.addAll(scenario.notes());
        return new ScenarioResult(scenario.id(), scenario.title(), scenario.status(), scenario.sizes(), scenario.metrics(),
                scenario.ratios(), scenario.targets(), scenario.series(), scenario.fingerprintFailures(), notes,
                scenario.jobScores());
    }

    static ObjectMapper mapper() {
        return new ObjectMapper().registerModule(new JavaTimeModule()).disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    }

    private static Map<String, String> versions() {
        Map<String, String> versions = new TreeMap<>();
        versions.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        versions.put("iceberg", org.apache.iceberg.IcebergBuild.version());
        versions.put("kafka clients", org.apache.kafka.common.utils.AppInfoParser.getVersion());
        for (String key : List.of("cryo.commit", "quarkus", "trino", "spark", "kafka broker")) {
            String value = System.getProperty("bench.version." + key.replace(' ', '-'));
            if (value != null && !value.isBlank()) {
                versions.put(key, value);
            }
        }
        return versions;
    }

    private static String stack(Exception e) {
        StringWriter text = new StringWriter();
        e.printStackTrace(new PrintWriter(text));
        String[] lines = text.toString().split("\n");
        return String.join(" / ", java.util.Arrays.copyOf(lines, Math.min(lines.length, 6)));
    }

    private BenchMain() {
    }
}
