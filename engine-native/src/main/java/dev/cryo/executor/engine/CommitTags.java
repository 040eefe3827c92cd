package dev.cryo.executor.engine;

/**
 * Snapshot summary properties that mark Cryo's commits: which job committed a snapshot and
 * which step of it. A re-run job reads them back from the table history, so a crash between a
 * commit and the executor's own bookkeeping still never commits a step twice.
 */
public final class CommitTags {

    /** The job id, e.g. {@code 7b0c…}. */
    public static final String JOB_ID = "cryo.job-id";

    /** The step, {@code <operation>:<chunk index>} or {@code <operation>} (see StepKey). */
    public static final String CHUNK = "cryo.chunk";

    private CommitTags() {
    }
}
