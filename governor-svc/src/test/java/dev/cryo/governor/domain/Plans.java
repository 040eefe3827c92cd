package dev.cryo.governor.domain;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Small builders for the domain tests. */
final class Plans {

    static final TableId TABLE = TableId.parse("lake.sales.orders");
    static final Instant NOW = Instant.parse("2026-06-15T12:00:00Z");

    static PlanCandidate candidate(String planId, int score, Instant plannedAt, long arrival) {
        return new PlanCandidate(planId, TABLE, score, plannedAt, arrival);
    }

    static PlanCandidate plan() {
        return candidate("plan-1", 40, NOW.minusSeconds(60), 1);
    }

    /** A context in which every check passes: native engine, 2 free slots, no lock, no history. */
    static AdmissionContext admissible() {
        return new AdmissionContext(plan(), TablePolicy.of(Duration.ofMinutes(10), Engine.NATIVE), NOW,
                Optional.empty(), List.of(), List.of(), EngineLoad.unmeasured(Engine.NATIVE, NOW), 2,
                Optional.empty(), FailureStreak.NONE);
    }

    static AdmissionContext with(AdmissionContext context, TablePolicy policy) {
        return new AdmissionContext(context.plan(), policy, context.now(), context.lastJobFinishedAt(),
                context.locksHeld(), context.runningJobs(), context.load().engine() == policy.engine() ? context.load()
                : EngineLoad.unmeasured(policy.engine(), context.now()), context.engineSlots(), context.requestedBy(),
                context.failures());
    }

    static AdmissionContext withLastFinish(AdmissionContext context, Instant finishedAt) {
        return new AdmissionContext(context.plan(), context.policy(), context.now(), Optional.of(finishedAt),
                context.locksHeld(), context.runningJobs(), context.load(), context.engineSlots(), context.requestedBy(),
                context.failures());
    }

    static AdmissionContext withLocks(AdmissionContext context, List<TableLock> locks) {
        return new AdmissionContext(context.plan(), context.policy(), context.now(), context.lastJobFinishedAt(),
                locks, context.runningJobs(), context.load(), context.engineSlots(), context.requestedBy(),
                context.failures());
    }

    static AdmissionContext withLoad(AdmissionContext context, EngineLoad load) {
        return new AdmissionContext(context.plan(), context.policy(), context.now(), context.lastJobFinishedAt(),
                context.locksHeld(), context.runningJobs(), load, context.engineSlots(), context.requestedBy(),
                context.failures());
    }

    static AdmissionContext withJobs(AdmissionContext context, List<RunningJob> jobs, int slots) {
        return new AdmissionContext(context.plan(), context.policy(), context.now(), context.lastJobFinishedAt(),
                context.locksHeld(), jobs, context.load(), slots, context.requestedBy(), context.failures());
    }

    static AdmissionContext requestedBy(AdmissionContext context, String operator) {
        return new AdmissionContext(context.plan(), context.policy(), context.now(), context.lastJobFinishedAt(),
                context.locksHeld(), context.runningJobs(), context.load(), context.engineSlots(), Optional.of(operator),
                context.failures());
    }

    static AdmissionContext withFailures(AdmissionContext context, FailureStreak failures) {
        return new AdmissionContext(context.plan(), context.policy(), context.now(), context.lastJobFinishedAt(),
                context.locksHeld(), context.runningJobs(), context.load(), context.engineSlots(), context.requestedBy(),
                failures);
    }

    static Pause pause(String pattern) {
        return new Pause("pause-1", TablePattern.parse(pattern), "quarter close", "operator:alice",
                Instant.parse("2026-06-15T08:00:00Z"));
    }

    private Plans() {
    }
}
