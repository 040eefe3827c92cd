package dev.cryo.governor.domain;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.event.DeferReason;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * The admission rules. The checks run in a fixed order and the first that fails defers the
 * plan with its reason: paused, blocked, cooldown, retry-backoff, outside-window, locked,
 * engine-busy, no-slot. The order puts what an operator decided (pause, cooldown, windows) and
 * what only an operator can undo (a block) before what the system's state decides (locks, load,
 * slots), so a paused table says "paused" even while its engine is busy. An operator's "fix now"
 * waives the cooldown and the retry backoff, not a block.
 *
 * <p>A job that fails with the same lasting error (not a conflict, a timeout or an unreachable
 * engine: {@link FailureStreak}) is tried again after a backoff that doubles with each failure,
 * and after {@code maxFailedAttempts} such jobs in a row its table is blocked until an operator
 * resumes it.
 */
public final class Admission {

    private final Duration recheckInterval;
    private final int maxFailedAttempts;
    private final Duration failureBackoff;

    /**
     * @param recheckInterval how soon a plan that waits for a lock, the engine's load or a slot is
     *                        looked at again when no event frees them first
     * @param maxFailedAttempts jobs in a row that may fail with the same lasting error before the table is blocked
     * @param failureBackoff the wait after the first such failure; it doubles with every further one
     */
    public Admission(Duration recheckInterval, int maxFailedAttempts, Duration failureBackoff) {
        requireNonNull(recheckInterval, "recheckInterval is null");
        if (recheckInterval.isNegative() || recheckInterval.isZero()) {
            throw new IllegalArgumentException("recheckInterval must be positive: " + recheckInterval);
        }
        if (maxFailedAttempts < 1) {
            throw new IllegalArgumentException("Cannot block tables after " + maxFailedAttempts
                    + " failed jobs: cryo.governor.failures.max-attempts must be at least 1");
        }
        requireNonNull(failureBackoff, "failureBackoff is null");
        if (failureBackoff.isNegative()) {
            throw new IllegalArgumentException("failureBackoff is negative: " + failureBackoff);
        }
        this.recheckInterval = recheckInterval;
        this.maxFailedAttempts = maxFailedAttempts;
        this.failureBackoff = failureBackoff;
    }

    /** The first check that fails defers the plan with its reason; a plan that passes them all gets a free slot. */
    public AdmissionDecision decide(AdmissionContext context) {
        return paused(context)
                .or(() -> blocked(context))
                .or(() -> coolingDown(context))
                .or(() -> backingOff(context))
                .or(() -> outsideWindow(context))
                .or(() -> locked(context))
                .or(() -> engineBusy(context))
                .<AdmissionDecision>map(defer -> defer)
                .orElseGet(() -> slot(context));
    }

    private static Optional<AdmissionDecision.Defer> paused(AdmissionContext context) {
        return context.policy().pause().map(pause -> new AdmissionDecision.Defer(DeferReason.PAUSED, "table "
                + table(context) + " is paused by pattern '" + pause.pattern() + "' (" + pause.pausedBy() + " at "
                + pause.pausedAt() + ": " + pause.reason() + "); lift pause " + pause.id() + " to let it run",
                Optional.empty(), context.policy().engine()));
    }

    private Optional<AdmissionDecision.Defer> blocked(AdmissionContext context) {
        FailureStreak failures = context.failures();
        if (failures.failures() < maxFailedAttempts) {
            return Optional.empty();
        }
        String table = table(context);
        return Optional.of(new AdmissionDecision.Defer(DeferReason.BLOCKED, "the last " + failures.failures() + " jobs on "
                + table + " failed with " + failures.errorCode() + ", which a retry does not cure (the newest at "
                + failures.lastFailedAt() + ": " + failures.message() + "); remove the cause, then resume the table"
                + " with ./cryo resume " + table, Optional.empty(), context.policy().engine()));
    }

    /**
     * The cooldown keeps the event flow from rewriting a table again and again; an operator's "fix
     * now" is a deliberate request and waives it. Locks, the engine's load and the slots still apply:
     * they protect running jobs and the engine's users.
     */
    private static Optional<AdmissionDecision.Defer> coolingDown(AdmissionContext context) {
        if (context.lastJobFinishedAt().isEmpty() || context.requestedBy().isPresent()) {
            return Optional.empty();
        }
        TablePolicy policy = context.policy();
        Instant coolEnd = context.lastJobFinishedAt().get().plus(policy.cooldown());
        if (!context.now().isBefore(coolEnd)) {
            return Optional.empty();
        }
        return Optional.of(new AdmissionDecision.Defer(DeferReason.COOLDOWN, "the last job on " + table(context)
                + " finished at " + context.lastJobFinishedAt().get() + ", less than the cooldown of " + policy.cooldown()
                + " ago (cryo.governor.cooldown or the table's policy)", Optional.of(coolEnd), policy.engine()));
    }

    private Optional<AdmissionDecision.Defer> backingOff(AdmissionContext context) {
        FailureStreak failures = context.failures();
        if (failures.failures() == 0 || context.requestedBy().isPresent()) {
            return Optional.empty();
        }
        Instant retryAt = failures.lastFailedAt()
                .plus(failureBackoff.multipliedBy(1L << Math.min(20, failures.failures() - 1)));
        if (!context.now().isBefore(retryAt)) {
            return Optional.empty();
        }
        return Optional.of(new AdmissionDecision.Defer(DeferReason.RETRY_BACKOFF, "the last job on " + table(context)
                + " failed with " + failures.errorCode() + " (" + failures.failures() + " of " + maxFailedAttempts
                + " attempts before the table is blocked: " + failures.message() + "); the next attempt waits until "
                + retryAt + " (cryo.governor.failures.backoff, doubling with every failure)", Optional.of(retryAt),
                context.policy().engine()));
    }

    private static Optional<AdmissionDecision.Defer> outsideWindow(AdmissionContext context) {
        TablePolicy policy = context.policy();
        Instant now = context.now();
        if (policy.windows().isEmpty() || policy.windows().stream().anyMatch(window -> window.contains(now))) {
            return Optional.empty();
        }
        Optional<Instant> nextStart = policy.windows().stream()
                .map(window -> window.nextStart(now))
                .flatMap(Optional::stream)
                .min(Comparator.naturalOrder());
        return Optional.of(new AdmissionDecision.Defer(DeferReason.OUTSIDE_WINDOW, now + " is outside the maintenance"
                + " windows " + policy.windows().stream().map(MaintenanceWindow::expression).toList() + " of "
                + table(context) + nextStart.map(start -> "; the next opens at " + start).orElse("; none opens again"),
                nextStart, policy.engine()));
    }

    private Optional<AdmissionDecision.Defer> locked(AdmissionContext context) {
        return context.locksHeld().stream()
                .filter(held -> held.table().equals(context.plan().table()))
                .findFirst()
                .map(lock -> new AdmissionDecision.Defer(DeferReason.LOCKED, "job " + lock.jobId() + " (plan "
                        + lock.planId() + ") holds " + table(context) + " until it finishes or its lease ends at "
                        + lock.leaseExpiresAt(), Optional.of(context.now().plus(recheckInterval)),
                        context.policy().engine()));
    }

    private Optional<AdmissionDecision.Defer> engineBusy(AdmissionContext context) {
        EngineLoad load = context.load();
        if (!load.isOverLimit()) {
            return Optional.empty();
        }
        Engine engine = context.policy().engine();
        String message = load.problem()
                .map(problem -> "Cannot read the load of engine " + engine.id() + ", so no work is added to it: "
                        + problem)
                .orElseGet(() -> "engine " + engine.id() + " runs " + load.foreignQueries().getAsInt()
                        + " queries that are not Cryo's (limit " + load.limit() + ")");
        return Optional.of(new AdmissionDecision.Defer(DeferReason.ENGINE_BUSY, message,
                Optional.of(context.now().plus(recheckInterval)), engine));
    }

    private AdmissionDecision slot(AdmissionContext context) {
        Engine engine = context.policy().engine();
        Set<Integer> slotsInUse = context.runningJobs().stream()
                .filter(job -> job.engine() == engine)
                .map(RunningJob::slot)
                .collect(Collectors.toSet());
        for (int slot = 0; slot < context.engineSlots(); slot++) {
            if (!slotsInUse.contains(slot)) {
                return new AdmissionDecision.Admit(engine, slot);
            }
        }
        return new AdmissionDecision.Defer(DeferReason.NO_SLOT, "all " + context.engineSlots()
                + " maintenance slots of engine " + engine.id() + " are in use (" + slotsInUse.size()
                + " jobs run; raise cryo.governor.slots." + engine.id() + " or PUT /api/v1/engines/" + engine.id() + ")",
                Optional.of(context.now().plus(recheckInterval)), engine);
    }

    private static String table(AdmissionContext context) {
        return context.plan().table().toString();
    }
}
