package dev.cryo.contracts.event;

/** The events an executor publishes on {@code cryo.jobs.results.v1} about one job. */
public sealed interface JobResult extends CryoEvent permits JobStarted, JobHeartbeat, OperationFinished, JobFinished {

    String jobId();

    String planId();
}
