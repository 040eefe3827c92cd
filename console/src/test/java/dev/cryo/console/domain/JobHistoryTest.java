package dev.cryo.console.domain;

import dev.cryo.console.client.ExecutorApi.ExecutorJob;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.FileCounts;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class JobHistoryTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String TABLE = "lake.web.clicks";

    @Test
    void jobsCarryTheirStepsWithFilesAndBytesBeforeAndAfterNewestFirst() {
        List<ExecutorJob> jobs = List.of(
                job("job-2", TABLE, "running", null, T0.plusSeconds(600), null),
                job("job-x", "lake.web.other", "finished", "succeeded", T0.plusSeconds(700), T0.plusSeconds(710)),
                job("job-1", TABLE, "finished", "succeeded", T0, T0.plusSeconds(60)));
        List<OperationFinished> results = List.of(
                step("job-1", Operation.OPTIMIZE, 1, 40, 4, T0.plusSeconds(30)),
                step("job-1", Operation.OPTIMIZE, 0, 80, 8, T0.plusSeconds(20)),
                step("job-1", Operation.EXPIRE_SNAPSHOTS, null, 0, 0, T0.plusSeconds(50)),
                step("job-2", Operation.OPTIMIZE, 0, 10, 1, T0.plusSeconds(620)));

        List<JobHistory.Job> history = JobHistory.of(TABLE, jobs, results, List.of(), 10);

        assertThat(history).extracting(JobHistory.Job::jobId).containsExactly("job-2", "job-1");
        JobHistory.Job first = history.get(1);
        assertThat(first.steps()).extracting(JobHistory.Step::name)
                .containsExactly("optimize chunk 0", "optimize chunk 1", "expire_snapshots");
        assertThat(first.before()).isEqualTo(new FileCounts(120, 120 * 4096, 2, 1200));
        assertThat(first.after()).isEqualTo(new FileCounts(12, 120 * 4096, 0, 1200));
        assertThat(first.steps().get(0).status()).isEqualTo("succeeded");
        assertThat(history.get(0).running()).isTrue();
    }

    @Test
    void aJobTheExecutorsNoLongerListIsStillShownFromItsResults() {
        JobScored score = new JobScored("job-9", "plan-job-9", TableId.parse(TABLE), JobOutcome.SUCCEEDED, 64, 92, 84,
                Grade.B, "scan-2", List.of(), false, List.of(), "score 64 → 84 (B), expected 92: 8 points short", T0);
        List<JobHistory.Job> history = JobHistory.of(TABLE, List.of(),
                List.of(step("job-9", Operation.OPTIMIZE, 0, 30, 3, T0)), List.of(score), 10);

        assertThat(history).singleElement().satisfies(job -> {
            assertThat(job.jobId()).isEqualTo("job-9");
            assertThat(job.score()).isEqualTo(score);
            assertThat(job.scoreResult()).isEqualTo("short");
            assertThat(job.planId()).isEqualTo("plan-job-9");
            assertThat(job.state()).isNull();
            assertThat(job.after().dataFiles()).isEqualTo(3);
        });
    }

    @Test
    void theLimitKeepsTheNewestJobs() {
        List<ExecutorJob> jobs = List.of(job("a", TABLE, "finished", "succeeded", T0, T0.plusSeconds(1)),
                job("b", TABLE, "finished", "failed", T0.plusSeconds(10), T0.plusSeconds(11)),
                job("c", TABLE, "finished", "succeeded", T0.plusSeconds(20), T0.plusSeconds(21)));

        assertThat(JobHistory.of(TABLE, jobs, List.of(), List.of(), 2)).extracting(JobHistory.Job::jobId).containsExactly("c", "b");
    }

    private static ExecutorJob job(String id, String table, String state, String outcome, Instant started,
                                   Instant finished) {
        return new ExecutorJob(id, "plan-" + id, table, "executor-1", 1, state, started, started, finished, outcome,
                null, null);
    }

    private static OperationFinished step(String job, Operation operation, Integer chunk, long filesBefore,
                                          long filesAfter, Instant finished) {
        long bytes = filesBefore * 4096;
        return new OperationFinished(job, "plan-" + job, TableId.parse(TABLE), operation, chunk, Engine.NATIVE, null,
                OperationStatus.SUCCEEDED, new FileCounts(filesBefore, bytes, filesBefore == 0 ? 0 : 1, filesBefore * 10),
                new FileCounts(filesAfter, filesAfter == 0 ? 0 : bytes, 0, filesBefore * 10), 7L, true, Duration.ofSeconds(2),
                0, null, null, null, finished);
    }
}
