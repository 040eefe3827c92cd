package dev.cryo.contracts.event;

/** The events about one job on {@code cryo.jobs.results.v1}: the executor's reports, and the planner's {@link JobScored}. */
public sealed interface JobResult extends CryoEvent permits JobStarted, JobHeartbeat, OperationFinished, JobRefused, JobFinished, JobScored {

    String jobId();

    String planId();
}
