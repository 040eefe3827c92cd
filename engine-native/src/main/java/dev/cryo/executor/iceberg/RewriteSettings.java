package dev.cryo.executor.iceberg;

import dev.cryo.executor.engine.Backoff;

import static java.util.Objects.requireNonNull;

/**
 * How the native engine rewrites files.
 *
 * @param minFileSizeRatio data files below this share of the target size are rewritten
 * @param maxFileSizeRatio data files above this multiple of the target size are split
 * @param maxCommitAttempts commits of one rewrite (the first and its rebases onto concurrent commits)
 * @param maxReplans times a chunk is planned and rewritten again from a newer snapshot when a rebase is impossible
 * @param backoff wait between replans and between commit attempts
 * @param threads partitions of a chunk rewritten at once, and new files read back at once (0: one per
 *                processor); {@link WriteMemory} bounds them further by heap
 */
public record RewriteSettings(double minFileSizeRatio, double maxFileSizeRatio, int maxCommitAttempts, int maxReplans,
                              Backoff backoff, int threads) {

    public RewriteSettings {
        if (minFileSizeRatio <= 0 || minFileSizeRatio >= 1) {
            throw new IllegalArgumentException("Cannot configure rewrites: min file size ratio must be in (0, 1), got "
                    + minFileSizeRatio);
        }
        if (maxFileSizeRatio <= 1) {
            throw new IllegalArgumentException("Cannot configure rewrites: max file size ratio must exceed 1, got "
                    + maxFileSizeRatio);
        }
        if (maxCommitAttempts < 1 || maxReplans < 0) {
            throw new IllegalArgumentException("Cannot configure rewrites: need at least one commit attempt and no"
                    + " negative replans, got " + maxCommitAttempts + " and " + maxReplans);
        }
        requireNonNull(backoff, "backoff is null");
        if (threads < 0) {
            throw new IllegalArgumentException("Cannot configure rewrites: threads must be 0 (one per processor) or more,"
                    + " got " + threads);
        }
    }

    /** The threads a rewrite uses: {@link #threads()}, or one per processor when it is 0. */
    public int effectiveThreads() {
        return threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
    }
}
