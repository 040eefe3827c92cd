package dev.cryo.bench.domain;

import dev.cryo.contracts.event.JobScored;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

import static java.util.Objects.requireNonNull;

/**
 * How Cryo's finished jobs kept their plans' promises, counted from the planner's {@link JobScored}
 * events. Every job is exactly one of: <b>reached</b> (the first grade after it reached the score its
 * plan expected), <b>short</b> (that grade fell short), <b>no-op</b> (it succeeded and none of its
 * operations changed the table), <b>ungraded</b> (scored without a grade: none followed within the
 * planner's wait) or <b>unscored</b> (no {@code JobScored} reached the benchmark within its wait).
 * The classes are the planner's own ({@code /api/v1/job-scores}).
 *
 * <p>The share reached is reached ÷ (reached + short): no-op, ungraded and unscored jobs are outside
 * the denominator and counted beside it. Tallies add up ({@link #plus}), so a scenario's targets are
 * counts over all its trials pooled, not means of per-trial shares.
 *
 * @param jobs Cryo's jobs that finished (or were scored) on the tables
 * @param reached jobs whose grade afterwards reached the expected score
 * @param shortOfExpected jobs whose grade afterwards fell short of it
 * @param noOp jobs that succeeded and changed nothing (whatever the grade)
 * @param ungraded jobs the planner scored without a grade
 * @param unscored jobs without a {@code JobScored}
 * @param shortMessages why jobs fell short, "table (job id): the planner's message", at most {@link #MAX_MESSAGES}
 * @param noOpMessages what no-op jobs ran, in the same form, at most {@link #MAX_MESSAGES}
 */
public record JobScoreTally(int jobs, int reached, int shortOfExpected, int noOp, int ungraded, int unscored,
                            List<String> shortMessages, List<String> noOpMessages) {

    /** Messages kept per kind: enough for a reader to see why, not a log. */
    public static final int MAX_MESSAGES = 3;
    /** The goal for the share of graded jobs that reach their expected score, in percent. */
    public static final double REACHED_PERCENT_GOAL = 95;
    public static final String SHARE_TARGET = "≥ 95 % of Cryo's graded jobs reach their expected score "
            + "(all trials pooled: reached ÷ (reached + short))";
    public static final String NO_OP_TARGET = "zero no-op jobs of Cryo (all trials pooled)";

    public JobScoreTally {
        for (int count : new int[]{jobs, reached, shortOfExpected, noOp, ungraded, unscored}) {
            if (count < 0) {
                throw new IllegalArgumentException("Cannot tally job scores: a count is negative (" + count + ")");
            }
        }
        if (reached + shortOfExpected + noOp + ungraded + unscored != jobs) {
            throw new IllegalArgumentException("Cannot tally job scores: " + reached + " reached + " + shortOfExpected
                    + " short + " + noOp + " no-op + " + ungraded + " ungraded + " + unscored + " unscored ≠ " + jobs
                    + " jobs");
        }
        shortMessages = first(requireNonNull(shortMessages, "shortMessages is null"));
        noOpMessages = first(requireNonNull(noOpMessages, "noOpMessages is null"));
    }

    /**
     * The jobs of one trial: those that finished and the scores that arrived for them. A score
     * published twice (a redelivery) counts once; a score without a seen end still counts as a job.
     */
    public static JobScoreTally of(Collection<String> finishedJobIds, Collection<JobScored> scores) {
        Map<String, JobScored> byJob = new LinkedHashMap<>();
        scores.forEach(score -> byJob.putIfAbsent(score.jobId(), score));
        Set<String> jobs = new LinkedHashSet<>(finishedJobIds);
        jobs.addAll(byJob.keySet());
        int reached = 0;
        int ungraded = 0;
        List<String> shortMessages = new ArrayList<>();
        List<String> noOpMessages = new ArrayList<>();
        for (JobScored score : byJob.values()) {
            if (score.noOp()) {
                noOpMessages.add(message(score));
            } else if (score.actualScore() == null) {
                ungraded++;
            } else if (score.reached()) {
                reached++;
            } else {
                shortMessages.add(message(score));
            }
        }
        return new JobScoreTally(jobs.size(), reached, shortMessages.size(), noOpMessages.size(), ungraded,
                jobs.size() - byJob.size(), shortMessages, noOpMessages);
    }

    /** Both tallies' jobs together. */
    public JobScoreTally plus(JobScoreTally other) {
        return new JobScoreTally(jobs + other.jobs, reached + other.reached, shortOfExpected + other.shortOfExpected,
                noOp + other.noOp, ungraded + other.ungraded, unscored + other.unscored,
                concat(shortMessages, other.shortMessages), concat(noOpMessages, other.noOpMessages));
    }

    /** Every trial's jobs together. */
    public static JobScoreTally pooled(List<JobScoreTally> trials) {
        return trials.stream().reduce(new JobScoreTally(0, 0, 0, 0, 0, 0, List.of(), List.of()), JobScoreTally::plus);
    }

    /** Jobs with a {@code JobScored}, graded or not. */
    public int scored() {
        return jobs - unscored;
    }

    /** reached ÷ (reached + short); null when no job was graded against its expectation. */
    public Double reachedShare() {
        int graded = reached + shortOfExpected;
        return graded == 0 ? null : (double) reached / graded;
    }

    /**
     * The two targets: share reached ≥ 95 % and no no-op job, both over these jobs. Not
     * evaluated when Cryo ran no job; the share also when no job was graded (the others say why).
     */
    public List<Target> targets() {
        if (jobs == 0) {
            return List.of(Target.notEvaluated(Target.Rule.WHOLE_RUN, SHARE_TARGET, "Cryo ran no job"),
                    Target.notEvaluated(Target.Rule.WHOLE_RUN, NO_OP_TARGET, "Cryo ran no job"));
        }
        Target reachedTarget;
        if (reachedShare() == null) {
            reachedTarget = Target.notEvaluated(Target.Rule.WHOLE_RUN, SHARE_TARGET, "no job was graded against its expected score ("
                    + noOp + " no-op, " + ungraded + " ungraded, " + unscored + " unscored)");
        } else {
            // from the counts, so that 19 of 20 is exactly 95 %
            double percent = 100.0 * reached / (reached + shortOfExpected);
            reachedTarget = Target.wholeRunAtLeast(SHARE_TARGET, percent, REACHED_PERCENT_GOAL, " %")
                    .withDetail(" (" + reached + " of " + (reached + shortOfExpected) + ")");
        }
        return List.of(reachedTarget, Target.wholeRunAtMost(NO_OP_TARGET, (double) noOp, 0, " jobs"));
    }

    /** One metric per class, per trial (contender "cryo"). */
    public static List<Metric> metrics(List<JobScoreTally> perTrial) {
        Map<String, ToIntFunction<JobScoreTally>> counts = new LinkedHashMap<>();
        counts.put("jobs finished", JobScoreTally::jobs);
        counts.put("jobs scored", JobScoreTally::scored);
        counts.put("jobs that reached the expected score", JobScoreTally::reached);
        counts.put("jobs short of the expected score", JobScoreTally::shortOfExpected);
        counts.put("no-op jobs", JobScoreTally::noOp);
        counts.put("ungraded jobs (scored without a grade)", JobScoreTally::ungraded);
        counts.put("unscored jobs (no JobScored in time)", JobScoreTally::unscored);
        List<Metric> metrics = new ArrayList<>();
        counts.forEach((name, count) -> metrics.add(new Metric(name, "jobs", "cryo",
                perTrial.stream().map(tally -> (double) count.applyAsInt(tally)).toList())));
        return metrics;
    }

    private static String message(JobScored score) {
        return score.table().namespaceName() + "." + score.table().table() + " (" + score.jobId() + "): "
                + score.message();
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> both = new ArrayList<>(first);
        both.addAll(second);
        return both;
    }

    private static List<String> first(List<String> messages) {
        return List.copyOf(messages.subList(0, Math.min(messages.size(), MAX_MESSAGES)));
    }
}
