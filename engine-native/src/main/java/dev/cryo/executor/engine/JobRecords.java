package dev.cryo.executor.engine;

import dev.cryo.contracts.Engine;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What the executors have written down about jobs that the deleting operations consult: the
 * engine steps (where each began), the jobs running now, and operators' releases of the orphan
 * share brake.
 */
public record JobRecords(EngineStepLog stepLog, RunningJobs runningJobs, OrphanBrakeReleases brakeReleases) {

    /** Nothing written down: no engine step, no other running job, no release (benchmarks, tools). */
    public static final JobRecords NONE = new JobRecords(new EngineStepLog() {
        @Override
        public void started(String jobId, StepKey step, Engine engine, Long startSnapshotId) {
        }

        @Override
        public List<StartedStep> started(String jobId) {
            return List.of();
        }
    }, RunningJobs.NONE, OrphanBrakeReleases.NONE);

    public JobRecords {
        requireNonNull(stepLog, "stepLog is null");
        requireNonNull(runningJobs, "runningJobs is null");
        requireNonNull(brakeReleases, "brakeReleases is null");
    }
}
