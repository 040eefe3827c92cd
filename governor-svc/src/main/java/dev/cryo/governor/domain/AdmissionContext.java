package dev.cryo.governor.domain;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What one admission decision sees.
 *
 * @param plan the plan
 * @param policy the table's policy
 * @param now the clock
 * @param lastJobFinishedAt when the last job on the table finished (empty: never)
 * @param locksHeld the table locks held now
 * @param runningJobs the jobs admitted and not finished
 * @param load the load of the policy's engine, as last read
 * @param engineSlots the maintenance slots of the policy's engine
 * @param requestedBy the operator who asked for the plan ("fix now"); empty for the event flow
 * @param failures the table's latest jobs that failed in a row with the same lasting error
 */
public record AdmissionContext(PlanCandidate plan, TablePolicy policy, Instant now, Optional<Instant> lastJobFinishedAt,
                               List<TableLock> locksHeld, List<RunningJob> runningJobs, EngineLoad load,
                               int engineSlots, Optional<String> requestedBy, FailureStreak failures) {
    public AdmissionContext {
        requireNonNull(failures, "failures is null");
        requireNonNull(plan, "plan is null");
        requireNonNull(requestedBy, "requestedBy is null");
        requireNonNull(policy, "policy is null");
        requireNonNull(now, "now is null");
        requireNonNull(lastJobFinishedAt, "lastJobFinishedAt is null");
        locksHeld = List.copyOf(locksHeld);
        runningJobs = List.copyOf(runningJobs);
        requireNonNull(load, "load is null");
        if (load.engine() != policy.engine()) {
            throw new IllegalArgumentException("the load of " + load.engine() + " does not tell about engine "
                    + policy.engine());
        }
        if (engineSlots < 0) {
            throw new IllegalArgumentException("engineSlots is negative: " + engineSlots);
        }
    }
}
