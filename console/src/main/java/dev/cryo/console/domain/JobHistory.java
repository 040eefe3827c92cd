package dev.cryo.console.domain;

import dev.cryo.console.client.ExecutorApi.ExecutorJob;
import dev.cryo.contracts.event.FileCounts;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.contracts.event.OperationFinished;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A table's jobs with what each step did to its files: the executors' job records joined with the
 * {@code OperationFinished} results that the audit log keeps (files and bytes before and after) and
 * the planner's score of each job (expected against actual).
 */
public final class JobHistory {

    /**
     * One job.
     *
     * @param state running or finished (null: only its results are known)
     * @param outcome succeeded, partially_succeeded, failed (null while running)
     * @param steps its steps in the order they finished
     * @param score the planner's score of the job against its plan's expected score (null: not scored yet)
     */
    public record Job(String jobId, String planId, String state, String outcome, int attempt, Instant startedAt,
                      Instant finishedAt, String errorCode, String message, List<Step> steps, JobScored score) {
        public Job {
            requireNonNull(jobId, "jobId is null");
            steps = List.copyOf(steps);
        }

        /** Files and bytes the steps read, summed. */
        public FileCounts before() {
            return sum(steps.stream().map(Step::before).toList());
        }

        /** Files and bytes the steps left, summed. */
        public FileCounts after() {
            return sum(steps.stream().map(Step::after).toList());
        }

        public boolean running() {
            return "running".equals(state);
        }

        /** reached, short, no-op or ungraded; null while the job has no score. */
        public String scoreResult() {
            if (score == null) {
                return null;
            }
            return score.noOp() ? "no-op" : score.actualScore() == null ? "ungraded" : score.reached() ? "reached" : "short";
        }

        /** The moment that orders jobs: the latest known of start, finish and step results. */
        Instant latest() {
            Instant latest = finishedAt != null ? finishedAt : startedAt;
            for (Step step : steps) {
                if (latest == null || step.finishedAt().isAfter(latest)) {
                    latest = step.finishedAt();
                }
            }
            return latest == null ? Instant.EPOCH : latest;
        }
    }

    /** One operation, or one chunk of a partition operation, as it finished. */
    public record Step(String operation, Integer chunk, String engine, String status, FileCounts before,
                       FileCounts after, Duration duration, String routedReason, String message, Instant finishedAt) {
        public String name() {
            return chunk == null ? operation : operation + " chunk " + chunk;
        }
    }

    /**
     * @param table the table whose jobs to show
     * @param jobs the executors' recent jobs of every table, newest first
     * @param results OperationFinished results of the table, in any order
     * @param scores the planner's scores of the table's jobs, in any order
     * @param limit jobs to keep, newest first
     */
    public static List<Job> of(String table, List<ExecutorJob> jobs, List<OperationFinished> results, List<JobScored> scores,
                               int limit) {
        Map<String, JobScored> scoreByJob = new LinkedHashMap<>();
        scores.forEach(score -> scoreByJob.put(score.jobId(), score));
        Map<String, List<Step>> stepsByJob = new LinkedHashMap<>();
        results.stream()
                .filter(result -> result.table().toString().equals(table))
                .sorted(Comparator.comparing(OperationFinished::finishedAt))
                .forEach(result -> stepsByJob.computeIfAbsent(result.jobId(), id -> new ArrayList<>()).add(step(result)));
        Map<String, Job> byId = new LinkedHashMap<>();
        for (ExecutorJob job : jobs) {
            if (!table.equals(job.table())) {
                continue;
            }
            byId.put(job.jobId(), new Job(job.jobId(), job.planId(), job.state(), job.outcome(), job.attempt(),
                    job.startedAt(), job.finishedAt(), job.errorCode(), job.message(),
                    stepsByJob.getOrDefault(job.jobId(), List.of()), scoreByJob.get(job.jobId())));
        }
        for (Map.Entry<String, List<Step>> entry : stepsByJob.entrySet()) {
            if (!byId.containsKey(entry.getKey())) {
                // The executors no longer list it (or are unreachable): the audit log still knows its steps.
                OperationFinished first = results.stream().filter(result -> result.jobId().equals(entry.getKey()))
                        .findFirst().orElseThrow();
                byId.put(entry.getKey(), new Job(entry.getKey(), first.planId(), null, null, 0, null, null, null, null,
                        entry.getValue(), scoreByJob.get(entry.getKey())));
            }
        }
        return byId.values().stream().sorted(Comparator.comparing(Job::latest).reversed()).limit(limit).toList();
    }

    static FileCounts sum(List<FileCounts> counts) {
        long files = 0;
        long bytes = 0;
        long deletes = 0;
        long records = 0;
        for (FileCounts count : counts) {
            files += count.dataFiles();
            bytes += count.dataBytes();
            deletes += count.deleteFiles();
            records += count.records();
        }
        return new FileCounts(files, bytes, deletes, records);
    }

    private static Step step(OperationFinished result) {
        return new Step(result.operation().id(), result.chunkIndex(), result.engine().id(),
                result.status().id(), result.before(), result.after(),
                result.duration(), result.routedReason(), result.message(), result.finishedAt());
    }

    private JobHistory() {
    }
}
