package dev.cryo.bench.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * Scenario 8's figures and targets from plain per-trial values: input throughput, CPU per GiB of
 * input, and the three targets (native throughput at least Spark's, native wall time within
 * 1.5 × Trino's, peak executor heap under 1 GiB).
 */
public final class CompactionFigures {

    public static final double BYTES_PER_MB = 1e6;
    public static final double BYTES_PER_GIB = 1024.0 * 1024 * 1024;
    public static final double BYTES_PER_MIB = 1024.0 * 1024;
    /** The limit on native wall time, as a multiple of Trino's. */
    public static final double WALL_LIMIT_TIMES_TRINO = 1.5;
    /** The heap limit for the executor, in MiB. */
    public static final double HEAP_LIMIT_MIB = 1024;

    /** Input megabytes (10^6 bytes) per second of wall time. */
    public static double throughputMegabytesPerSecond(long inputBytes, double wallSeconds) {
        requirePositive(wallSeconds, "wall time");
        return inputBytes / BYTES_PER_MB / wallSeconds;
    }

    /** CPU-seconds per GiB (2^30 bytes) of input. */
    public static double cpuSecondsPerGibibyte(double cpuSeconds, long inputBytes) {
        if (inputBytes <= 0) {
            throw new IllegalArgumentException("Cannot give CPU per GiB: the input has " + inputBytes + " bytes");
        }
        return cpuSeconds / (inputBytes / BYTES_PER_GIB);
    }

    /**
     * The targets from per-trial ratios (native ÷ Spark throughput, native ÷ Trino wall time) and the
     * native runs' peak heaps; an empty list is an engine that did not run, with the reason given.
     */
    public static List<Target> targets(List<Double> throughputNativeOverSpark, String sparkMissing,
                                       List<Double> wallNativeOverTrino, String trinoMissing,
                                       List<Double> peakHeapMebibytes) {
        List<Target> targets = new ArrayList<>();
        String throughput = "native throughput ≥ Spark local (MB/s of input, native ÷ Spark ≥ 1)";
        targets.add(throughputNativeOverSpark.isEmpty() ? Target.notEvaluated(Target.Rule.EVERY_TRIAL, throughput, sparkMissing)
                : Target.atLeast(throughput, throughputNativeOverSpark, 1.0, "×"));
        String wall = "native wall time ≤ 1.5 × Trino optimize";
        targets.add(wallNativeOverTrino.isEmpty() ? Target.notEvaluated(Target.Rule.EVERY_TRIAL, wall, trinoMissing)
                : Target.atMost(wall, wallNativeOverTrino, WALL_LIMIT_TIMES_TRINO, "×"));
        String heap = "peak executor heap < 1 GiB (largest trial, sum of heap pool peaks)";
        targets.add(peakHeapMebibytes.isEmpty() ? Target.notEvaluated(Target.Rule.EVERY_TRIAL, heap, "the native engine did not run")
                : Target.atMost(heap, peakHeapMebibytes, HEAP_LIMIT_MIB, " MiB"));
        return targets;
    }

    private static void requirePositive(double seconds, String what) {
        if (!(seconds > 0)) {
            throw new IllegalArgumentException("Cannot give a throughput: the " + what + " is " + seconds + " s");
        }
    }

    private CompactionFigures() {
    }
}
