package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.QueryMixSpeedup;
import dev.cryo.bench.domain.QuerySample;
import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.domain.Statistics;
import dev.cryo.bench.domain.Target;
import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.QueryMix;
import dev.cryo.bench.harness.TableFacts;
import dev.cryo.bench.harness.TrinoClient;
import dev.cryo.bench.harness.TrinoDag;
import dev.cryo.bench.harness.Workload;
import dev.cryo.iceberg.fingerprint.Fingerprint;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.cryo.bench.scenario.FragmentedContenders.record;

/**
 * Scenario 2: one table fragmented by streaming; Cryo against an engineer's hand-run maintenance on a copy,
 * on the native engine and, when Trino is started, on Trino (Cryo's copy with a governor policy engine trino,
 * the hand-run's the DAG's Trino statements), with the dashboard query mix on Trino before and after.
 */
public final class Fragmented implements Scenario {

    static final String TABLE = "streamed";
    static final String NO_TRINO = "not run: start with --with trino";
    static final String CRYO = "cryo";
    static final String HAND = "hand-run";
    static final String CRYO_TRINO = "cryo (trino)";
    static final String HAND_TRINO = "hand-run (trino)";
    /** Part of a contender's compute: its JIT compiler threads (executor, harness JVM or Trino server). */
    static final String JIT = "of which JIT compiler CPU";

    /** One contender's copy of the table; {@code pause} is the governor pause that Cryo's copy is built under. */
    record Copy(String contender, String namespace, Workload workload, String pause) {
    }

    @Override
    public int id() {
        return 2;
    }

    @Override
    public String title() {
        return "one table fragmented by streaming (native; Trino when started)";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        int files = context.sizes().integer("frag.files");
        int perCommit = context.sizes().integer("frag.files-per-commit");
        int partitions = context.sizes().integer("frag.partitions");
        int rowsPerFile = context.sizes().integer("frag.rows-per-file");
        long target = context.sizes().longValue("target-file-size-bytes");
        Duration timeout = context.sizes().duration("frag.settle-timeout");
        int queryRuns = context.sizes().integer("frag.query-runs");
        boolean trino = context.trinoAvailable();
        Optional<Long> trinoPid = trino ? context.environment().enginePid("trino") : Optional.empty();
        if (trino && trinoPid.isEmpty()) {
            throw new IllegalStateException("Cannot measure Trino's CPU: no running process in "
                    + context.environment().runtime().resolve("trino").resolve("trino.pid")
                    + " (start Trino with ./cryo infra up --with trino in the same CRYO_RUNTIME_DIR)");
        }
        Map<String, List<Double>> values = new LinkedHashMap<>();
        List<String> fingerprintFailures = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        int warmUpRounds = context.sizes().integer("frag.warm-up-rounds");
        int warmUpJobs = context.sizes().integer("frag.warm-up-jobs");
        for (int round = 0; round < warmUpRounds; round++) {
            // the same maintenance on copies of the same size, nothing recorded: the measured trials then compare two
            // warm JVMs (the harness's is warm from building the tables anyway; a fresh executor is not)
            long start = System.nanoTime();
            FragmentedWarmUp.round(context, round, warmUpJobs, files, perCommit, rowsPerFile, partitions, target, timeout,
                    trinoPid, notes);
            notes.add("warm-up round " + (round + 1) + " (not measured): every contender maintained a copy of the same "
                    + "size " + warmUpJobs + " times in " + (System.nanoTime() - start) / 1_000_000_000L + " s");
        }
        for (int trial = 0; trial < context.trials(); trial++) {
            int trialNumber = trial + 1;
            long seed = BenchContext.seed(trial, 0);
            Copy cryo = copy(context, context.namespace(2, trial, "cryo"), CRYO, "native", target, seed);
            Copy hand = copy(context, context.namespace(2, trial, "hand"), HAND, null, target, seed);
            long buildSeconds = Workload.appendToBoth(cryo.workload(), hand.workload(), files, perCommit, rowsPerFile,
                    partitions);
            List<Copy> copies = new ArrayList<>(List.of(cryo, hand));
            Copy cryoTrino = null;
            Copy handTrino = null;
            if (trino) {
                cryoTrino = copy(context, context.namespace(2, trial, "cryotrino"), CRYO_TRINO, "trino", target, seed);
                handTrino = copy(context, context.namespace(2, trial, "handtrino"), HAND_TRINO, null, target, seed);
                buildSeconds += Workload.appendToBoth(cryoTrino.workload(), handTrino.workload(), files, perCommit,
                        rowsPerFile, partitions);
                copies.add(cryoTrino);
                copies.add(handTrino);
            }
            notes.add("trial " + trialNumber + ": built " + copies.size() + " copies in " + buildSeconds + " s");
            Map<String, Fingerprint> before = new LinkedHashMap<>();
            for (Copy copy : copies) {
                record(values, copy.contender(), "data files before", TableFacts.of(copy.workload().table(), 0).dataFiles());
                before.put(copy.contender(), copy.workload().actual());
            }
            Map<String, List<QuerySample>> mixBefore = trino ? mix(context, copies, queryRuns) : Map.of();

            FragmentedContenders.cryoRun(context, cryo, true, timeout, Optional.empty(), values, notes, trialNumber);
            context.api().deletePolicy(context.pattern(cryo.namespace()));
            FragmentedContenders.handRunNative(context, hand, values);
            if (trino) {
                FragmentedContenders.cryoRun(context, cryoTrino, true, timeout, trinoPid, values, notes, trialNumber);
                context.api().deletePolicy(context.pattern(cryoTrino.namespace()));
                FragmentedContenders.handRunTrino(context, handTrino, trinoPid.orElseThrow(), values);
            }

            if (trino) {
                Map<String, List<QuerySample>> mixAfter = mix(context, copies, queryRuns);
                for (Copy copy : copies) {
                    speedups(values, notes, trialNumber, copy.contender(),
                            QueryMixSpeedup.of(mixBefore.get(copy.contender()), mixAfter.get(copy.contender())));
                }
            }
            for (Copy copy : copies) {
                TableFacts after = TableFacts.of(copy.workload().table(), 0);
                record(values, copy.contender(), "data files after", after.dataFiles());
                record(values, copy.contender(), "bytes after", after.dataBytes());
                check("trial " + trialNumber + " " + copy.contender(), before.get(copy.contender()),
                        copy.workload().actual(), copy.workload().expected(), fingerprintFailures);
            }
        }

        List<Metric> metrics = new ArrayList<>();
        values.forEach((key, perTrial) -> {
            String[] parts = key.split("\\|", 2);
            metrics.add(new Metric(parts[1], FragmentedVerdicts.unit(parts[1]), parts[0], perTrial));
        });
        List<Metric> ratios = new ArrayList<>(FragmentedVerdicts.ratios(values, CRYO, HAND, "compute (executor CPU)", "cryo/hand-run"));
        List<Target> targets = new ArrayList<>(FragmentedVerdicts.targets(values, CRYO, HAND, "compute (executor CPU)", ""));
        if (trino) {
            ratios.addAll(FragmentedVerdicts.ratios(values, CRYO_TRINO, HAND_TRINO, "compute (Trino server + executor CPU)",
                    "cryo/hand-run (trino)"));
            targets.addAll(FragmentedVerdicts.targets(values, CRYO_TRINO, HAND_TRINO, "compute (Trino server + executor CPU)",
                    " (Trino)"));
            FragmentedVerdicts.addRatio(ratios, values, "query-mix speedup cryo ÷ hand-run", CRYO, HAND, "query-mix geometric-mean speedup",
                    "cryo/hand-run");
            FragmentedVerdicts.addRatio(ratios, values, "query-mix speedup cryo ÷ hand-run", CRYO_TRINO, HAND_TRINO,
                    "query-mix geometric-mean speedup", "cryo/hand-run (trino)");
            for (String contender : List.of(CRYO, HAND, CRYO_TRINO, HAND_TRINO)) {
                List<Double> speedups = values.getOrDefault(contender + "|query-mix geometric-mean speedup", List.of());
                targets.add(Target.reported("query-mix geometric-mean speedup on Trino, " + contender + "'s copy "
                        + "(95 % CI over the trials' log speedups)", Statistics.geometricMean(speedups), "×"));
            }
        } else {
            targets.add(Target.notEvaluated(Target.Rule.REPORTED, "query-mix geometric-mean speedup on Trino", NO_TRINO));
            targets.add(Target.notEvaluated(Target.Rule.EVERY_TRIAL, "Trino variant: file count and bytes = the hand-run's ± 5 %, compute ≤ 1.1 × "
                    + "hand-run", NO_TRINO));
        }
        notes.add("Cryo's wall time: from resuming the table (and one fix-now scan) to the start of the 10 s quiet window. "
                + "The hand-run is the DAG's statements run once on the copy, in the harness JVM (native: compute = the "
                + "harness's CPU over the run). Every contender's compute is read " + FragmentedContenders.READ_AFTER.toSeconds()
                + " s after its work ended: the hand-run's last statement, the start of Cryo's quiet window.");
        if (trino) {
            notes.add("Trino variant: Cryo's copy has a governor policy (cooldown PT5S, engine trino); its compute is the "
                    + "Trino server's CPU plus the executor's (the executor routes what Trino cannot do to the native "
                    + "engine), both over Cryo's window; Trino's part includes whatever else the server did then "
                    + "(nothing but Cryo used it). The hand-run (trino): " + TrinoDag.describe()
                    + ", once over Trino JDBC (user " + TrinoClient.USER + "); its compute is the "
                    + "Trino server's CPU over the statements and the same time after them.");
            notes.add("Query mix on Trino, on every copy before any maintenance and after all: one untimed round per "
                    + "copy, then " + queryRuns + " rounds, each over every copy in turn, of " + QueryMix.describe() + "; per query the median of its " + queryRuns
                    + " latencies, speedup = before ÷ after, the trial's value = the geometric mean over the queries.");
        } else {
            notes.add("Trino variant: " + NO_TRINO + ".");
        }
        return new ScenarioResult(id(), title(), trino ? ScenarioResult.SCORED : ScenarioResult.SCORED
                + "; Trino variant " + NO_TRINO, context.sizes().withPrefix("frag."), metrics, ratios, targets, List.of(),
                fingerprintFailures, notes);
    }

    /** A new namespace and table for one contender, paused in the governor; Cryo's copies get the protocol's policy. */
    static Copy copy(BenchContext context, String namespace, String contender, String cryoEngine, long target,
                             long seed) {
        context.lakehouse().createNamespace(namespace);
        String pause;
        if (cryoEngine == null) {
            pause = context.api().pause(context.pattern(namespace), "CryoBench: the hand-run copy");
        } else {
            pause = context.api().pause(context.pattern(namespace), "CryoBench: building the table");
            // PROTOCOL.md: the only setting the harness changes on Cryo's copy is cooldown = PT5S, as in scenarios 1 and 3
            // (a plan made before the job ran would otherwise wait out the default 10-minute cooldown in the queue);
            // the Trino variant also names the engine, as scenario 4
            if (cryoEngine.equals("trino")) {
                context.api().policy(context.pattern(namespace), Duration.ofSeconds(5), "trino");
            } else {
                context.api().policy(context.pattern(namespace), Duration.ofSeconds(5));
            }
        }
        return new Copy(contender, namespace, new Workload(context.lakehouse().create(namespace, TABLE, target, false), seed),
                pause);
    }

    /**
     * The query mix on every copy: one untimed round per copy, then {@code runs} rounds, each round over every copy in
     * turn (so that a change of the machine's load during the phase falls on every copy alike).
     */
    private static Map<String, List<QuerySample>> mix(BenchContext context, List<Copy> copies, int runs)
            throws Exception {
        Map<String, List<QuerySample>> samples = new LinkedHashMap<>();
        try (TrinoClient client = TrinoClient.open(context.lakehouse().catalogName())) {
            for (Copy copy : copies) {
                // Trino's first look at a table (metadata, plans) is not what a dashboard sees
                QueryMix.rounds(client, QueryMix.table(copy.namespace(), TABLE), 1);
                samples.put(copy.contender(), new ArrayList<>());
            }
            for (int run = 0; run < runs; run++) {
                for (Copy copy : copies) {
                    samples.get(copy.contender()).addAll(QueryMix.rounds(client, QueryMix.table(copy.namespace(), TABLE), 1));
                }
            }
        }
        return samples;
    }

    private static void speedups(Map<String, List<Double>> values, List<String> notes, int trial, String contender,
                                 QueryMixSpeedup mix) {
        double geometricMean = mix.geometricMean();
        if (Double.isFinite(geometricMean)) {
            record(values, contender, "query-mix geometric-mean speedup", geometricMean);
        }
        mix.speedups().forEach((query, speedup) -> record(values, contender, "speedup: " + query, speedup));
        record(values, contender, "dashboard mix before (sum of medians)", mix.mixBeforeSeconds());
        record(values, contender, "dashboard mix after (sum of medians)", mix.mixAfterSeconds());
        record(values, contender, "failed dashboard queries", mix.failures());
        if (mix.speedups().size() < QueryMix.QUERIES.size()) {
            notes.add("trial " + trial + ": " + contender + "'s copy: " + (QueryMix.QUERIES.size() - mix.speedups().size())
                    + " of the mix's queries never answered before or after; the geometric mean is over "
                    + mix.speedups().size());
        }
    }

    static void check(String who, Fingerprint before, Fingerprint after, Fingerprint expected, List<String> failures) {
        if (!before.equals(after) || !after.equals(expected)) {
            failures.add(who + ": " + before + " before, " + after + " after, written " + expected);
        }
    }
}
