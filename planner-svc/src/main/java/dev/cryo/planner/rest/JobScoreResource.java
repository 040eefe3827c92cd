package dev.cryo.planner.rest;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.planner.PlannerErrorCode;
import dev.cryo.planner.app.JobScoring;
import dev.cryo.planner.config.PlannerConfig;
import dev.cryo.planner.persistence.JobScoreStore;
import dev.cryo.platform.error.CryoException;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * How jobs kept their plans' promises: one job's score (what {@code ./cryo fix} prints after the
 * job), and the scores of a time range with how many reached the expected score.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class JobScoreResource {

    private static final int MAX_SCORES = 1000;
    private static final int MAX_ID_LENGTH = 64;

    private final JobScoring scoring;
    private final JobScoreStore store;
    private final PlannerConfig config;
    private final Clock clock;

    JobScoreResource(JobScoring scoring, JobScoreStore store, PlannerConfig config, Clock clock) {
        this.scoring = scoring;
        this.store = store;
        this.config = config;
        this.clock = clock;
    }

    /** One job's score; 404 (saying why) until the first grade after the job has arrived. */
    @GET
    @Path("/jobs/{jobId}/score")
    public JobScored score(@PathParam("jobId") String jobId) {
        if (jobId.length() > MAX_ID_LENGTH) {
            throw CryoException.invalid("Cannot show the score of job '" + jobId.substring(0, 40) + "…': a job id is at most "
                    + MAX_ID_LENGTH + " characters");
        }
        return scoring.score(jobId).orElseThrow(() -> new CryoException(PlannerErrorCode.JOB_NOT_SCORED,
                store.finished(jobId).isPresent()
                        ? "Job " + jobId + " finished and waits for the grade of a scan after its last change (at most "
                        + config.scoreWait() + ", " + JobScoring.SCORE_WAIT_SETTING + ")"
                        : "Job " + jobId + " has no score: the planner has not seen it finish"));
    }

    /**
     * Scores of jobs that finished since {@code since} (an ISO instant or a duration back from now,
     * default the last 24 hours), of one table or all, newest first, with how many reached their
     * expected score.
     */
    @GET
    @Path("/job-scores")
    public JobScoreReport scores(@QueryParam("table") String table, @QueryParam("since") @DefaultValue("PT24H") String since,
                                 @QueryParam("limit") @DefaultValue("200") int limit) {
        if (limit < 1 || limit > MAX_SCORES) {
            throw CryoException.invalid("Cannot list job scores: limit must be 1.." + MAX_SCORES + ", was " + limit);
        }
        Optional<TableId> id = Optional.ofNullable(table).filter(text -> !text.isBlank()).map(JobScoreResource::tableId);
        Instant from = since(since);
        return JobScoreReport.of(id.orElse(null), from, scoring.scores(id, from, limit));
    }

    /**
     * The scores and their tally. {@code reachedShare} is the share of scored jobs (no-ops and
     * ungraded jobs apart) that reached their expected score; null when none was scored.
     */
    public record JobScoreReport(TableId table, Instant since, int jobs, int reached, int shortOfExpected, int noOp,
                                 int ungraded, Double reachedShare, List<JobScored> scores) {
        static JobScoreReport of(TableId table, Instant since, List<JobScored> scores) {
            int noOp = (int) scores.stream().filter(JobScored::noOp).count();
            List<JobScored> measured = scores.stream().filter(score -> !score.noOp() && score.actualScore() != null).toList();
            int reached = (int) measured.stream().filter(JobScored::reached).count();
            int ungraded = (int) scores.stream().filter(score -> !score.noOp() && score.actualScore() == null).count();
            return new JobScoreReport(table, since, scores.size(), reached, measured.size() - reached, noOp, ungraded,
                    measured.isEmpty() ? null : (double) reached / measured.size(), List.copyOf(scores));
        }
    }

    private Instant since(String text) {
        try {
            return text.startsWith("P") ? clock.instant().minus(Duration.parse(text)) : Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw CryoException.invalid("Cannot list job scores: since must be an ISO instant (2026-12-01T00:00:00Z) or a "
                    + "duration back from now (PT24H), was '" + text + "'");
        }
    }

    private static TableId tableId(String text) {
        try {
            return TableId.parse(text);
        } catch (IllegalArgumentException e) {
            throw CryoException.invalid(e.getMessage());
        }
    }
}
