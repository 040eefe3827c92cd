package dev.cryo.bench.harness;

import dev.cryo.bench.domain.JobScoreTally;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobScored;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Cryo's jobs on one scenario's tables and how each kept its plan's promise, per trial, from the
 * tap: the executor's {@link JobFinished} and the planner's {@link JobScored}. The planner scores a
 * job once the scanner has graded the table again after it, some seconds after the job's end, so
 * the harness waits until every finished job has its score, at most {@link #WAIT} after the
 * scenario's last job ended; a job still without a score then counts as unscored.
 */
public final class ScoredJobs {

    /** How long after the scenario's last job ended its scores are waited for. */
    public static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration POLL = Duration.ofMillis(500);

    private ScoredJobs() {
    }

    /** The tallies of the scenario's trials, in trial order, once every job is scored or the wait is over. */
    public static List<JobScoreTally> await(BenchContext context, int scenario) {
        while (true) {
            List<JobScoreTally> perTrial = new ArrayList<>();
            Instant lastEnd = Instant.MIN;
            for (int trial = 0; trial < context.trials(); trial++) {
                String prefix = context.tablePrefix(scenario, trial);
                List<JobFinished> finished = context.tap().events(JobFinished.class,
                        job -> job.table().toString().startsWith(prefix));
                perTrial.add(JobScoreTally.of(finished.stream().map(JobFinished::jobId).toList(),
                        context.tap().events(JobScored.class, score -> score.table().toString().startsWith(prefix))));
                for (JobFinished job : finished) {
                    lastEnd = job.finishedAt().isAfter(lastEnd) ? job.finishedAt() : lastEnd;
                }
            }
            if (JobScoreTally.pooled(perTrial).unscored() == 0 || Instant.now().isAfter(lastEnd.plus(WAIT))) {
                return perTrial;
            }
            Settle.sleep(POLL);
        }
    }
}
