package dev.cryo.bench.scenario;

import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.Workload;
import dev.cryo.bench.scenario.Fragmented.Copy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static dev.cryo.bench.scenario.Fragmented.CRYO;
import static dev.cryo.bench.scenario.Fragmented.CRYO_TRINO;
import static dev.cryo.bench.scenario.Fragmented.HAND;
import static dev.cryo.bench.scenario.Fragmented.HAND_TRINO;
import static dev.cryo.bench.scenario.Fragmented.JIT;

/** Scenario 2's untimed warm-up before trial 1 (PROTOCOL.md, scenario 2, from protocol 10). */
final class FragmentedWarmUp {

    private FragmentedWarmUp() {
    }

    /**
     * One untimed round: a pair of copies (two with Trino) built once, then maintained {@code jobs} times by each
     * contender as in a trial, each copy rolled back to its built snapshot between two maintenances (a metadata commit:
     * the files stay, Cryo sees a new commit of a fragmented table and plans it again). What each maintenance cost goes to
     * the notes, so that the run shows whether the executor's compiler had gone quiet before trial 1.
     */
    static void round(BenchContext context, int round, int jobs, int files, int perCommit, int rowsPerFile, int partitions,
                      long target, Duration timeout, Optional<Long> trinoPid, List<String> notes) throws Exception {
        long seed = BenchContext.seed(round, 1);
        Copy cryo = Fragmented.copy(context, context.warmUpNamespace(2, round, "cryo"), CRYO, "native", target, seed);
        Copy hand = Fragmented.copy(context, context.warmUpNamespace(2, round, "hand"), HAND, null, target, seed);
        Workload.appendToBoth(cryo.workload(), hand.workload(), files, perCommit, rowsPerFile, partitions);
        warmUpPair(context, round, jobs, cryo, hand, timeout, Optional.empty(), notes);
        if (trinoPid.isPresent()) {
            Copy cryoTrino = Fragmented.copy(context, context.warmUpNamespace(2, round, "cryotrino"), CRYO_TRINO,
                    "trino", target, seed);
            Copy handTrino = Fragmented.copy(context, context.warmUpNamespace(2, round, "handtrino"), HAND_TRINO,
                    null, target, seed);
            Workload.appendToBoth(cryoTrino.workload(), handTrino.workload(), files, perCommit, rowsPerFile, partitions);
            warmUpPair(context, round, jobs, cryoTrino, handTrino, timeout, trinoPid, notes);
        }
    }

    private static void warmUpPair(BenchContext context, int round, int jobs, Copy cryo, Copy hand, Duration timeout,
                                   Optional<Long> trinoPid, List<String> notes) throws Exception {
        long cryoBuilt = current(cryo);
        long handBuilt = current(hand);
        String compute = trinoPid.isPresent() ? "compute (Trino server + executor CPU)" : "compute (executor CPU)";
        List<String> costs = new ArrayList<>();
        for (int job = 0; job < jobs; job++) {
            if (job > 0) {
                rollBack(cryo, cryoBuilt);
                rollBack(hand, handBuilt);
            }
            Map<String, List<Double>> figures = new LinkedHashMap<>();
            List<String> jobNotes = new ArrayList<>();
            int maintenance = job + 1;
            FragmentedContenders.cryoRun(context, cryo, job == 0, timeout, trinoPid, figures, jobNotes, 0);
            // a maintenance without a job would warm nothing up: say so rather than let the round look complete
            jobNotes.stream().filter(note -> note.contains("admitted no job"))
                    .forEach(note -> notes.add("warm-up round " + (round + 1) + ", maintenance " + maintenance + ": "
                            + note.substring(note.indexOf(':') + 2)));
            if (trinoPid.isPresent()) {
                FragmentedContenders.handRunTrino(context, hand, trinoPid.get(), figures);
            } else {
                FragmentedContenders.handRunNative(context, hand, figures);
            }
            costs.add(String.format(Locale.ROOT, "%.2f (JIT %.2f) against %.2f (JIT %.2f)",
                    figures.get(cryo.contender() + "|" + compute).get(0),
                    figures.get(cryo.contender() + "|" + JIT).get(0),
                    figures.get(hand.contender() + "|" + compute).get(0),
                    figures.get(hand.contender() + "|" + JIT).get(0)));
        }
        context.api().deletePolicy(context.pattern(cryo.namespace()));
        notes.add("warm-up round " + (round + 1) + ", " + cryo.contender() + " against " + hand.contender()
                + ", CPU-s per maintenance of the same copy: " + String.join("; ", costs));
    }

    private static long current(Copy copy) {
        copy.workload().table().refresh();
        return copy.workload().table().currentSnapshot().snapshotId();
    }

    /** Back to the fragmented snapshot the copy was built to; its rows are the same, so the workload's are unchanged. */
    private static void rollBack(Copy copy, long built) {
        copy.workload().table().refresh();
        copy.workload().table().manageSnapshots().rollbackTo(built).commit();
    }
}
