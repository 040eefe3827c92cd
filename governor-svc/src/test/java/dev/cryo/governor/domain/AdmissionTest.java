package dev.cryo.governor.domain;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.DeferReason;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.cryo.governor.domain.Plans.NOW;
import static dev.cryo.governor.domain.Plans.TABLE;
import static dev.cryo.governor.domain.Plans.admissible;
import static dev.cryo.governor.domain.Plans.pause;
import static dev.cryo.governor.domain.Plans.requestedBy;
import static dev.cryo.governor.domain.Plans.with;
import static dev.cryo.governor.domain.Plans.withFailures;
import static dev.cryo.governor.domain.Plans.withJobs;
import static dev.cryo.governor.domain.Plans.withLastFinish;
import static dev.cryo.governor.domain.Plans.withLoad;
import static dev.cryo.governor.domain.Plans.withLocks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdmissionTest {

    private static final Duration RECHECK = Duration.ofSeconds(30);
    private final Admission admission = new Admission(RECHECK, 3, Duration.ofMinutes(5));

    @Test
    void admitsOnTheLowestFreeSlotOfThePolicysEngine() {
        AdmissionContext context = withJobs(admissible(), List.of(
                new RunningJob("job-a", TableId.parse("lake.sales.a"), Engine.NATIVE, 0),
                new RunningJob("job-b", TableId.parse("lake.sales.b"), Engine.NATIVE, 2),
                new RunningJob("job-c", TableId.parse("lake.sales.c"), Engine.SPARK, 1)), 3);

        assertThat(admission.decide(context)).isEqualTo(new AdmissionDecision.Admit(Engine.NATIVE, 1));
    }

    @Test
    void pausedTableWaitsUntilAnOperatorLiftsThePause() {
        AdmissionContext context = with(admissible(), admissible().policy().withPause(pause("lake.sales.*")));

        AdmissionDecision.Defer defer = defer(context);

        assertThat(defer.reason()).isEqualTo(DeferReason.PAUSED);
        assertThat(defer.message()).isEqualTo("table lake.sales.orders is paused by pattern 'lake.sales.*' "
                + "(operator:alice at 2026-06-15T08:00:00Z: quarter close); lift pause pause-1 to let it run");
        assertThat(defer.retryAfter()).isEmpty();
    }

    @Test
    void aTableWhoseJobsFailWithTheSameLastingErrorWaitsLongerAfterEachAndIsBlockedAfterTheThird() {
        Instant failed = NOW.minus(Duration.ofMinutes(4));
        FailureStreak once = new FailureStreak(1, "NOT_ROUTABLE", "Cannot run optimize:0 of lake.sales.orders", failed);

        AdmissionDecision.Defer first = defer(withFailures(admissible(), once));
        assertThat(first.reason()).isEqualTo(DeferReason.RETRY_BACKOFF);
        assertThat(first.retryAfter()).contains(failed.plus(Duration.ofMinutes(5)));
        assertThat(first.message()).isEqualTo("the last job on lake.sales.orders failed with NOT_ROUTABLE (1 of 3 attempts"
                + " before the table is blocked: Cannot run optimize:0 of lake.sales.orders); the next attempt waits until"
                + " 2026-06-15T12:01:00Z (cryo.governor.failures.backoff, doubling with every failure)");
        AdmissionDecision.Defer second = defer(withFailures(admissible(),
                new FailureStreak(2, "NOT_ROUTABLE", "again", failed)));
        assertThat(second.retryAfter()).contains(failed.plus(Duration.ofMinutes(10)));
        assertThat(admission.decide(withFailures(admissible(), new FailureStreak(2, "NOT_ROUTABLE", "again",
                NOW.minus(Duration.ofMinutes(10)))))).isInstanceOf(AdmissionDecision.Admit.class);
        assertThat(admission.decide(requestedBy(withFailures(admissible(), once), "operator:alice")))
                .as("fix now waives the backoff").isInstanceOf(AdmissionDecision.Admit.class);

        FailureStreak thrice = new FailureStreak(3, "NOT_ROUTABLE", "Cannot run optimize:0", failed);
        AdmissionDecision.Defer blocked = defer(withFailures(admissible(), thrice));
        assertThat(blocked.reason()).isEqualTo(DeferReason.BLOCKED);
        assertThat(blocked.retryAfter()).as("only a resume helps").isEmpty();
        assertThat(blocked.message()).isEqualTo("the last 3 jobs on lake.sales.orders failed with NOT_ROUTABLE, which a"
                + " retry does not cure (the newest at 2026-06-15T11:56:00Z: Cannot run optimize:0); remove the cause, then"
                + " resume the table with ./cryo resume lake.sales.orders");
        assertThat(defer(requestedBy(withFailures(admissible(), thrice), "operator:alice")).reason())
                .as("fix now does not lift a block").isEqualTo(DeferReason.BLOCKED);
        assertThat(defer(with(withFailures(admissible(), thrice), admissible().policy().withPause(pause("lake.**")))).reason())
                .as("a pause still says paused").isEqualTo(DeferReason.PAUSED);
    }

    @Test
    void onlyFailuresInARowWithOneLastingErrorMakeAStreak() {
        java.util.Set<String> transientCodes = java.util.Set.of("COMMIT_CONFLICT");
        Instant t = NOW;
        FailureStreak.FinishedJob notRoutable = new FailureStreak.FinishedJob("failed", "NOT_ROUTABLE", "no engine", t);
        FailureStreak.FinishedJob brake = new FailureStreak.FinishedJob("partially-succeeded", "ORPHAN_SHARE_BRAKE",
                "brake", t.minusSeconds(1));
        FailureStreak.FinishedJob conflict = new FailureStreak.FinishedJob("failed", "COMMIT_CONFLICT", "lost", t);
        FailureStreak.FinishedJob succeeded = new FailureStreak.FinishedJob("succeeded", null, null, t.minusSeconds(9));
        FailureStreak.FinishedJob abandoned = new FailureStreak.FinishedJob("abandoned", null, "lease ran out", t);
        FailureStreak.FinishedJob paused = new FailureStreak.FinishedJob("cancelled", "TABLE_PAUSED", "table paused", t);

        assertThat(FailureStreak.of(List.of(notRoutable, notRoutable, notRoutable, succeeded), transientCodes))
                .isEqualTo(new FailureStreak(3, "NOT_ROUTABLE", "no engine", t));
        assertThat(FailureStreak.of(List.of(notRoutable, brake, notRoutable), transientCodes).failures()).isEqualTo(1);
        assertThat(FailureStreak.of(List.of(brake, brake), transientCodes))
                .isEqualTo(new FailureStreak(2, "ORPHAN_SHARE_BRAKE", "brake", t.minusSeconds(1)));
        assertThat(FailureStreak.of(List.of(conflict, conflict, conflict), transientCodes)).isEqualTo(FailureStreak.NONE);
        assertThat(FailureStreak.of(List.of(succeeded, notRoutable), transientCodes)).isEqualTo(FailureStreak.NONE);
        assertThat(FailureStreak.of(List.of(abandoned, notRoutable), transientCodes)).isEqualTo(FailureStreak.NONE);
        assertThat(FailureStreak.of(List.of(paused, paused, paused), transientCodes)).as("a pause is no failure")
                .isEqualTo(FailureStreak.NONE);
        assertThat(FailureStreak.of(List.of(), transientCodes)).isEqualTo(FailureStreak.NONE);
    }

    @Test
    void cooldownRunsFromTheLastFinishAndEndsExactlyAfterIt() {
        Instant finished = NOW.minus(Duration.ofMinutes(4));

        AdmissionDecision.Defer defer = defer(withLastFinish(admissible(), finished));

        assertThat(defer.reason()).isEqualTo(DeferReason.COOLDOWN);
        assertThat(defer.retryAfter()).contains(finished.plus(Duration.ofMinutes(10)));
        assertThat(defer.message()).isEqualTo("the last job on lake.sales.orders finished at 2026-06-15T11:56:00Z, "
                + "less than the cooldown of PT10M ago (cryo.governor.cooldown or the table's policy)");
        assertThat(admission.decide(withLastFinish(admissible(), NOW.minus(Duration.ofMinutes(10)))))
                .isInstanceOf(AdmissionDecision.Admit.class);
        assertThat(admission.decide(with(withLastFinish(admissible(), NOW.minusSeconds(1)),
                admissible().policy().withCooldown(Duration.ZERO)))).isInstanceOf(AdmissionDecision.Admit.class);
    }

    @Test
    void anOperatorsFixNowWaivesTheCooldownButNotPausesLocksOrSlots() {
        AdmissionContext justFinished = withLastFinish(admissible(), NOW.minusSeconds(30));

        assertThat(admission.decide(requestedBy(justFinished, "operator:alice")))
                .isEqualTo(new AdmissionDecision.Admit(Engine.NATIVE, 0));
        assertThat(defer(requestedBy(with(justFinished, justFinished.policy().withPause(pause("lake.sales.*"))),
                "operator:alice")).reason()).isEqualTo(DeferReason.PAUSED);
        assertThat(defer(requestedBy(withLocks(justFinished, List.of(new TableLock(TABLE, "job-9", "plan-9",
                NOW.plusSeconds(60)))), "operator:alice")).reason()).isEqualTo(DeferReason.LOCKED);
        assertThat(defer(requestedBy(withJobs(justFinished, List.of(new RunningJob("job-a",
                TableId.parse("lake.sales.a"), Engine.NATIVE, 0)), 1), "operator:alice")).reason())
                .isEqualTo(DeferReason.NO_SLOT);
    }

    @Test
    void outsideEveryWindowWaitsForTheEarliestNextStart() {
        List<MaintenanceWindow> windows = List.of(MaintenanceWindow.parse("22:00-06:00 Europe/Berlin"),
                MaintenanceWindow.parse("18:00-19:00 America/New_York"));

        AdmissionDecision.Defer defer = defer(with(admissible(), admissible().policy().withWindows(windows)));

        assertThat(defer.reason()).isEqualTo(DeferReason.OUTSIDE_WINDOW);
        // 12:00Z: Berlin opens at 20:00Z, New York at 22:00Z.
        assertThat(defer.retryAfter()).contains(Instant.parse("2026-06-15T20:00:00Z"));
        assertThat(defer.message()).isEqualTo("2026-06-15T12:00:00Z is outside the maintenance windows "
                + "[22:00-06:00 Europe/Berlin, 18:00-19:00 America/New_York] of lake.sales.orders; "
                + "the next opens at 2026-06-15T20:00:00Z");
        assertThat(admission.decide(with(admissible(), admissible().policy()
                .withWindows(List.of(MaintenanceWindow.parse("11:00-13:00")))))).isInstanceOf(AdmissionDecision.Admit.class);
    }

    @Test
    void aLockedTableWaitsAndIsLookedAtAgainAfterTheRecheckInterval() {
        TableLock lock = new TableLock(TABLE, "job-9", "plan-0", NOW.plusSeconds(90));
        TableLock other = new TableLock(TableId.parse("lake.sales.other"), "job-8", "plan-x", NOW.plusSeconds(90));

        AdmissionDecision.Defer defer = defer(withLocks(admissible(), List.of(other, lock)));

        assertThat(defer.reason()).isEqualTo(DeferReason.LOCKED);
        assertThat(defer.message()).isEqualTo("job job-9 (plan plan-0) holds lake.sales.orders until it finishes "
                + "or its lease ends at 2026-06-15T12:01:30Z");
        assertThat(defer.retryAfter()).contains(NOW.plus(RECHECK));
        assertThat(admission.decide(withLocks(admissible(), List.of(other)))).isInstanceOf(AdmissionDecision.Admit.class);
    }

    @Test
    void aBusyTrinoDefersOnlyWhenItsForeignQueriesExceedTheLimit() {
        AdmissionContext trino = with(admissible(), admissible().policy().withEngine(Engine.TRINO));

        AdmissionDecision.Defer defer = defer(withLoad(trino, EngineLoad.measured(Engine.TRINO, 14, 10, NOW)));

        assertThat(defer.reason()).isEqualTo(DeferReason.ENGINE_BUSY);
        assertThat(defer.message()).isEqualTo("engine trino runs 14 queries that are not Cryo's (limit 10)");
        assertThat(defer.retryAfter()).contains(NOW.plus(RECHECK));
        assertThat(defer.engine()).isEqualTo(Engine.TRINO);
        assertThat(admission.decide(withLoad(trino, EngineLoad.measured(Engine.TRINO, 10, 10, NOW))))
                .isEqualTo(new AdmissionDecision.Admit(Engine.TRINO, 0));
    }

    @Test
    void anEngineWhoseLoadCannotBeReadGetsNoWork() {
        AdmissionContext trino = with(admissible(), admissible().policy().withEngine(Engine.TRINO));

        AdmissionDecision.Defer defer = defer(withLoad(trino,
                EngineLoad.unreadable(Engine.TRINO, 10, NOW, "connection refused (cryo.governor.trino.jdbc-url)")));

        assertThat(defer.reason()).isEqualTo(DeferReason.ENGINE_BUSY);
        assertThat(defer.message()).isEqualTo("Cannot read the load of engine trino, so no work is added to it: "
                + "connection refused (cryo.governor.trino.jdbc-url)");
    }

    @Test
    void whenEverySlotIsTakenThePlanWaitsForOne() {
        AdmissionContext context = withJobs(admissible(), List.of(
                new RunningJob("job-a", TableId.parse("lake.sales.a"), Engine.NATIVE, 0),
                new RunningJob("job-b", TableId.parse("lake.sales.b"), Engine.NATIVE, 1)), 2);

        AdmissionDecision.Defer defer = defer(context);

        assertThat(defer.reason()).isEqualTo(DeferReason.NO_SLOT);
        assertThat(defer.message()).isEqualTo("all 2 maintenance slots of engine native are in use (2 jobs run; "
                + "raise cryo.governor.slots.native or PUT /api/v1/engines/native)");
        assertThat(defer.retryAfter()).contains(NOW.plus(RECHECK));
        assertThat(defer(withJobs(admissible(), List.of(), 0)).reason()).isEqualTo(DeferReason.NO_SLOT);
    }

    @Test
    void theChecksRunInTheirFixedOrder() {
        AdmissionContext everythingFails = withFailures(withJobs(withLoad(withLocks(withLastFinish(
                with(admissible(), admissible().policy().withEngine(Engine.TRINO)
                        .withPause(pause("lake.**"))
                        .withWindows(List.of(MaintenanceWindow.parse("01:00-02:00")))),
                NOW.minusSeconds(5)),
                List.of(new TableLock(TABLE, "job-9", "plan-0", NOW.plusSeconds(60)))),
                EngineLoad.measured(Engine.TRINO, 50, 10, NOW)),
                List.of(new RunningJob("job-z", TableId.parse("lake.x.y"), Engine.TRINO, 0)), 1),
                new FailureStreak(3, "NOT_ROUTABLE", "no engine", NOW.minusSeconds(5)));

        List<DeferReason> seen = new ArrayList<>();
        AdmissionContext context = everythingFails;
        AdmissionDecision decision = admission.decide(context);
        while (decision instanceof AdmissionDecision.Defer defer) {
            seen.add(defer.reason());
            context = fix(context, defer.reason());
            decision = admission.decide(context);
        }

        assertThat(seen).containsExactly(DeferReason.PAUSED, DeferReason.BLOCKED, DeferReason.COOLDOWN,
                DeferReason.RETRY_BACKOFF, DeferReason.OUTSIDE_WINDOW, DeferReason.LOCKED, DeferReason.ENGINE_BUSY,
                DeferReason.NO_SLOT);
        assertThat(decision).isEqualTo(new AdmissionDecision.Admit(Engine.TRINO, 1));
    }

    @Test
    void aLoadOfAnotherEngineIsRefused() {
        assertThatThrownBy(() -> withLoad(admissible(), EngineLoad.measured(Engine.TRINO, 1, 10, NOW)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the load of TRINO does not tell about engine NATIVE");
    }

    private static AdmissionContext fix(AdmissionContext context, DeferReason reason) {
        TablePolicy policy = context.policy();
        return switch (reason) {
            case PAUSED -> with(context, new TablePolicy(Optional.empty(), policy.cooldown(), policy.windows(),
                    policy.engine(), policy.rules()));
            case BLOCKED -> withFailures(context, new FailureStreak(1, "NOT_ROUTABLE", "no engine", NOW.minusSeconds(5)));
            case COOLDOWN -> with(context, policy.withCooldown(Duration.ZERO));
            case RETRY_BACKOFF -> withFailures(context, FailureStreak.NONE);
            case OUTSIDE_WINDOW -> with(context, policy.withWindows(List.of()));
            case LOCKED -> withLocks(context, List.of());
            case ENGINE_BUSY -> withLoad(context, EngineLoad.measured(Engine.TRINO, 3, 10, NOW));
            case NO_SLOT -> withJobs(context, context.runningJobs(), 2);
            case SUPERSEDED -> throw new AssertionError("the admission rules never supersede");
        };
    }

    private AdmissionDecision.Defer defer(AdmissionContext context) {
        AdmissionDecision decision = admission.decide(context);
        assertThat(decision).isInstanceOf(AdmissionDecision.Defer.class);
        return (AdmissionDecision.Defer) decision;
    }
}
