package dev.cryo.executor.rest;

import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.persistence.JobAttempts;
import dev.cryo.platform.error.CryoException;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/** Jobs this executor group ran or runs, newest first, with each job's steps. Read-only. */
@Path("/api/v1/jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    /** A job with its steps. */
    public record JobView(JobAttempts.JobRecord job, List<StepView> steps) {
    }

    /** One step of a job as recorded. */
    public record StepView(String step, int attempt, String status, Long committedSnapshotId, String errorCode,
                           String message) {
        static StepView of(JobAttempts.StoredStep stored) {
            OperationFinished event = stored.event();
            return new StepView(stored.step().toString(), stored.attempt(), event.status().id(),
                    event.committedSnapshotId(), event.errorCode(), event.message());
        }
    }

    private final JobAttempts attempts;

    JobsResource(JobAttempts attempts) {
        this.attempts = attempts;
    }

    @GET
    public List<JobAttempts.JobRecord> recent(@QueryParam("limit") @DefaultValue("50") int limit) {
        if (limit < 1 || limit > 1000) {
            throw CryoException.invalid("Cannot list jobs: limit must be between 1 and 1000, got " + limit);
        }
        return attempts.recent(limit);
    }

    @GET
    @Path("/{jobId}")
    public JobView job(@PathParam("jobId") String jobId) {
        JobAttempts.JobRecord job = attempts.find(jobId).orElseThrow(() -> new CryoException(
                ExecutorErrorCode.JOB_NOT_FOUND, "Cannot find job " + jobId + ": no executor of this group ran it"));
        return new JobView(job, attempts.steps(jobId).values().stream().map(StepView::of).toList());
    }
}
