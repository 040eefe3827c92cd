package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.ApiError;
import dev.cryo.cli.api.Service;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * What {@code ./cryo fix} asks the services while it follows a table: one question each, answered
 * as found or not (a 404 is "not yet", any other error is thrown). It says nothing and keeps no
 * state; {@link FixCommand} decides what the answers mean.
 */
final class FixLookups {

    private final ApiClient api;

    FixLookups(ApiClient api) {
        this.api = requireNonNull(api, "api is null");
    }

    /** The scorer's current grade of the table (empty until its first grading). */
    Optional<JsonNode> grade(String tablePath) {
        return found(Service.SCORER, "/api/v1/tables/" + tablePath);
    }

    /** The planner's score of a finished job (empty until the grade after it arrives). */
    Optional<JsonNode> jobScore(String jobId) {
        return found(Service.PLANNER, "/api/v1/jobs/" + ApiClient.segment(jobId) + "/score");
    }

    /** The plan as the planner keeps it. */
    JsonNode plan(String planId) {
        return api.get(Service.PLANNER, "/api/v1/plans/" + ApiClient.segment(planId));
    }

    /** The plan as the governor last decided it (empty: it has not reached the governor). */
    Optional<JsonNode> governorPlan(String planId) {
        return found(Service.GOVERNOR, "/api/v1/plans/" + ApiClient.segment(planId));
    }

    /** The governor's view of the table: policy, lock, queued plans, failures. */
    JsonNode governedTable(String tablePath) {
        return api.get(Service.GOVERNOR, "/api/v1/tables/" + tablePath);
    }

    /** A job the executors record, finished or not (empty: none by that id yet). */
    Optional<JsonNode> job(String jobId) {
        return found(Service.EXECUTOR, "/api/v1/jobs/" + ApiClient.segment(jobId)).map(view -> view.path("job"));
    }

    /** The newest started job of the executors' recent ones that matches. */
    Optional<JsonNode> newestJob(Predicate<JsonNode> matching) {
        JsonNode latest = null;
        for (JsonNode job : api.get(Service.EXECUTOR, "/api/v1/jobs?limit=200")) {
            Instant startedAt = BaseCommand.instant(job, "startedAt");
            if (startedAt != null && matching.test(job)
                    && (latest == null || startedAt.isAfter(BaseCommand.instant(latest, "startedAt")))) {
                latest = job;
            }
        }
        return Optional.ofNullable(latest);
    }

    /** "optimize, 2 of 5 chunks done on native" from the governor's view of a running job, or null. */
    String running(String jobId) {
        for (JsonNode job : api.get(Service.GOVERNOR, "/api/v1/queue").path("running")) {
            if (jobId.equals(job.path("jobId").asText()) && job.hasNonNull("operation")) {
                String chunks = job.hasNonNull("chunksTotal") && job.path("chunksTotal").asInt() > 0
                        ? ", " + job.path("chunksDone").asInt() + " of " + job.path("chunksTotal").asInt() + " chunks done" : "";
                return job.path("operation").asText() + chunks + " on " + job.path("engine").asText();
            }
        }
        return null;
    }

    private Optional<JsonNode> found(Service service, String path) {
        try {
            return Optional.of(api.get(service, path));
        } catch (ApiError e) {
            if (e.isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
