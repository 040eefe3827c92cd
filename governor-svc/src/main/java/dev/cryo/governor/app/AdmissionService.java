package dev.cryo.governor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.DeferReason;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.governor.config.GovernorConfig;
import dev.cryo.governor.domain.Admission;
import dev.cryo.governor.domain.AdmissionContext;
import dev.cryo.governor.domain.AdmissionDecision;
import dev.cryo.governor.domain.EngineLoad;
import dev.cryo.governor.domain.FailureStreak;
import dev.cryo.governor.domain.Pause;
import dev.cryo.governor.domain.PlanCandidate;
import dev.cryo.governor.domain.Policies;
import dev.cryo.governor.domain.PolicyRule;
import dev.cryo.governor.domain.StalePlans;
import dev.cryo.governor.domain.Supersession;
import dev.cryo.governor.domain.TablePolicy;
import dev.cryo.governor.persistence.JobStore;
import dev.cryo.governor.persistence.OutboxStore;
import dev.cryo.governor.persistence.PlanStore.QueuedPlan;
import dev.cryo.governor.persistence.PlanStore.ReceivedPlan;
import dev.cryo.governor.persistence.PlanStore;
import dev.cryo.governor.persistence.RuleStore;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.messaging.EventIds;
import io.quarkus.logging.Log;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.Optional;

/**
 * Admission decisions with their side effects: each plan is decided in its own transaction
 * that serialises on the table (so no two decisions or releases on one table interleave, in
 * this instance or another) and on the engine (so slots are counted by one decision at a
 * time), and writes its events to the outbox in the same transaction.
 */
@ApplicationScoped
public class AdmissionService {

    private static final int PASS_LIMIT = 500;

    private final PlanStore plans;
    private final JobStore jobs;
    private final RuleStore rules;
    private final OutboxStore outbox;
    private final EngineLoads loads;
    private final GovernorMetrics metrics;
    private final ServiceInstance instance;
    private final Clock clock;
    private final GovernorConfig config;
    private final Admission admission;
    private final Engine defaultEngine;

    AdmissionService(PlanStore plans, JobStore jobs, RuleStore rules, OutboxStore outbox, EngineLoads loads,
               GovernorMetrics metrics, ServiceInstance instance, Clock clock, GovernorConfig config) {
        this.plans = plans;
        this.jobs = jobs;
        this.rules = rules;
        this.outbox = outbox;
        this.loads = loads;
        this.metrics = metrics;
        this.instance = instance;
        this.clock = clock;
        this.config = config;
        this.admission = new Admission(config.recheckInterval(), config.failures().maxAttempts(), config.failures().backoff());
        this.defaultEngine = Engine.fromId(config.defaultEngine());
    }

    /** Stores an arriving plan as queued (or drops it, or the plan it replaces). Idempotent. */
    public void receive(EventEnvelope<MaintenancePlanned> envelope) {
        MaintenancePlanned plan = envelope.data();
        ReceivedPlan received = new ReceivedPlan(new PlanCandidate(plan.planId(), plan.table(), plan.score(),
                plan.plannedAt(), 0), plan.supersedesPlanId(), envelope.id(), envelope.correlationId(),
                envelope.actor(), new String(EventJson.write(plan), StandardCharsets.UTF_8));
        QuarkusTransaction.requiringNew().run(() -> {
            jobs.serialize(plan.table());
            Instant now = clock.instant();
            if (plans.known(plan.planId()).isPresent()) {
                Log.debugf("Plan %s of %s was received before; nothing to do", plan.planId(), plan.table());
                return;
            }
            Supersession.Outcome outcome = Supersession.onArrival(plan.planId(), plan.table(),
                    Optional.ofNullable(plan.supersedesPlanId()).flatMap(plans::known), plans.supersededBy(plan.planId()));
            plans.insert(received, plan.snapshotId(), plan.scanStartedAt(), now);
            if (outcome instanceof Supersession.DropArriving drop) {
                supersede(plans.find(plan.planId()).orElseThrow(), drop.message(), now);
                return;
            }
            if (outcome instanceof Supersession.DropOlder drop) {
                supersede(plans.find(drop.olderPlanId()).orElseThrow(), drop.message(), now);
            }
            // A scan taken before a job's last commit (while it ran, or just before) arrives late.
            Optional<String> stale = jobs.lastCommit(plan.table()).flatMap(commit -> StalePlans.staleAfter(
                    new StalePlans.PlanBasis(plan.planId(), plan.table(), plan.snapshotId(), plan.scanStartedAt()), commit));
            stale.ifPresent(message -> supersede(plans.find(plan.planId()).orElseThrow(), message, now));
        });
    }

    /**
     * Drops the table's queued plans that were made from scans older than its last commit: called
     * when the job that made it finishes, so the plans it made stale never run.
     */
    void dropStalePlans(TableId table, Instant now) {
        jobs.lastCommit(table).ifPresent(commit -> {
            for (StalePlans.PlanBasis basis : plans.queuedBases(table)) {
                StalePlans.staleAfter(basis, commit).ifPresent(message ->
                        supersede(plans.find(basis.planId()).orElseThrow(), message, now));
            }
        });
    }

    /**
     * Decides every due plan, worst score first; returns how many were decided. Once an engine
     * turns out full or busy in a pass, the plans behind it that were waiting for that engine's
     * capacity are not decided again in the same pass: they would get the same answer, and a
     * freed slot goes to the worst-scored plan first anyway.
     */
    public int decideDue() {
        List<PlanStore.DuePlan> due = QuarkusTransaction.requiringNew().call(() -> plans.due(clock.instant(), PASS_LIMIT));
        if (due.isEmpty()) {
            return 0;
        }
        // One reading of the operators' policies per pass: a change to them starts a new pass anyway.
        Rules rules = QuarkusTransaction.requiringNew().call(() -> new Rules(this.rules.policies()));
        Set<Engine> loadRecorded = EnumSet.noneOf(Engine.class);
        Set<Engine> saturated = EnumSet.noneOf(Engine.class);
        List<String> postponed = new ArrayList<>();
        int decided = 0;
        for (PlanStore.DuePlan plan : due) {
            PlanCandidate candidate = plan.candidate();
            if (plan.engine().filter(saturated::contains).isPresent() && plan.lastReason()
                    .filter(reason -> reason == DeferReason.NO_SLOT || reason == DeferReason.ENGINE_BUSY).isPresent()) {
                postponed.add(candidate.planId());
                continue;
            }
            try {
                Optional<AdmissionDecision> decision = decide(candidate, rules, loadRecorded);
                decision.filter(made -> made instanceof AdmissionDecision.Defer defer
                                && (defer.reason() == DeferReason.NO_SLOT || defer.reason() == DeferReason.ENGINE_BUSY))
                        .ifPresent(made -> saturated.add(made.engine()));
                if (decision.isPresent()) {
                    decided++;
                }
            } catch (RuntimeException e) {
                // One plan's failure (a deadlock victim, a lost connection) must not stall the others.
                Log.errorf(e, "Cannot decide plan %s of %s now; it stays queued for the next pass",
                        candidate.planId(), candidate.table());
            }
        }
        if (!postponed.isEmpty()) {
            Instant next = clock.instant().plus(config.recheckInterval());
            QuarkusTransaction.requiringNew().run(() -> plans.postpone(postponed, next));
        }
        return decided;
    }

    /** The operators' policies, as one pass reads them. */
    private record Rules(List<PolicyRule> policies) {
    }

    /**
     * Decides one plan if it is still queued and due; empty when another decision has it (in
     * this instance or another) or took it first.
     */
    private Optional<AdmissionDecision> decide(PlanCandidate candidate, Rules passRules, Set<Engine> loadRecorded) {
        return QuarkusTransaction.requiringNew().call(() -> {
            // Pauses are read for each decision, under the lock a new pause waits on (see pausesForAdmission),
            // taken before the table's lock as the pause takes them: pauses, then tables.
            List<Pause> pauses = rules.pausesForAdmission();
            if (!jobs.trySerialize(candidate.table())) {
                return Optional.<AdmissionDecision>empty();
            }
            Instant now = clock.instant();
            Optional<QueuedPlan> locked = plans.lockDue(candidate.planId(), now);
            if (locked.isEmpty()) {
                return Optional.<AdmissionDecision>empty();
            }
            QueuedPlan queued = locked.get();
            TablePolicy policy = Policies.resolve(candidate.table(), pauses, passRules.policies(),
                    config.cooldown(), defaultEngine);
            Engine engine = policy.engine();
            RuleStore.EngineSetting setting = rules.lockEngine(engine).orElseThrow(() -> new CryoException(
                    CommonErrorCode.INTERNAL_ERROR, "Cannot admit plan " + candidate.planId() + ": engine "
                    + engine.id() + " has no settings row"));
            EngineLoad load = loads.current(engine, setting.maxForeignQueries());
            // Spark and native loads say nothing new from one decision to the next: record them once a pass.
            if (engine == Engine.TRINO || loadRecorded.add(engine)) {
                rules.recordLoad(load);
            }
            if (engine == Engine.TRINO && load.foreignQueries().isPresent()) {
                metrics.trinoForeignQueries(load.foreignQueries().getAsInt());
            }
            AdmissionDecision decision = admission.decide(new AdmissionContext(queued.plan().candidate(), policy, now,
                    jobs.lastFinish(candidate.table()), jobs.lockOf(candidate.table()).stream().toList(),
                    jobs.running(engine), load, setting.slots(),
                    Optional.ofNullable(queued.plan().actor()).filter(actor -> !actor.isBlank()),
                    failures(candidate.table())));
            if (decision instanceof AdmissionDecision.Admit admit) {
                admit(queued, admit, now);
            } else {
                defer(queued, (AdmissionDecision.Defer) decision, now);
            }
            return Optional.of(decision);
        });
    }

    /** The table's latest jobs that failed in a row with the same lasting error. */
    public FailureStreak failures(TableId table) {
        return FailureStreak.of(jobs.finishedSinceResume(table, config.failures().maxAttempts() + 1),
                config.failures().transientErrorCodes());
    }

    private void admit(QueuedPlan queued, AdmissionDecision.Admit admit, Instant now) {
        ReceivedPlan plan = queued.plan();
        TableId table = plan.candidate().table();
        String jobId = EventIds.derived(plan.candidate().planId(), "job");
        Instant leaseExpiresAt = now.plus(config.lease());
        jobs.insert(jobId, plan.candidate().planId(), table, admit.engine(), admit.slot(), now, instance.id());
        if (!jobs.acquire(table, jobId, now, leaseExpiresAt)) {
            // The table decision is serialised, so this means the lock table and the decision disagree: a bug.
            throw new CryoException(CommonErrorCode.INTERNAL_ERROR, "Cannot admit plan " + plan.candidate().planId()
                    + ": table " + table + " was locked after the decision read it unlocked");
        }
        plans.admit(plan.candidate().planId(), jobId, admit.engine());
        MaintenancePlanned payload = EventJson.read(plan.payload().getBytes(StandardCharsets.UTF_8),
                MaintenancePlanned.class);
        outbox.append(new EventEnvelope<>(EventIds.derived(plan.eventId(), "admitted"), EventType.JOB_ADMITTED,
                instance.source(), now, table.toString(), plan.correlationId(), plan.actor(),
                new JobAdmitted(jobId, plan.candidate().planId(), table, admit.engine(), admit.slot(), now,
                        leaseExpiresAt, instance.id(), payload)));
        metrics.admitted(admit.engine());
        Log.infof("Admitted plan %s of %s as job %s on %s slot %d (score %d)", plan.candidate().planId(), table, jobId,
                admit.engine().id(), admit.slot(), plan.candidate().score());
    }

    private void defer(QueuedPlan queued, AdmissionDecision.Defer defer, Instant now) {
        ReceivedPlan plan = queued.plan();
        // Only a new reason is news: a plan re-checked every few seconds for the same lock publishes once.
        boolean changed = queued.lastReason().filter(reason -> reason == defer.reason()).isEmpty();
        Instant nextEvaluation = defer.retryAfter().orElse(now.plus(config.recheckInterval()));
        plans.defer(plan.candidate().planId(), defer.reason(), defer.message(), defer.retryAfter().orElse(null), now,
                defer.engine(), nextEvaluation, changed);
        if (changed) {
            outbox.append(new EventEnvelope<>(EventIds.derived(plan.eventId(), "deferred/" + (queued.deferrals() + 1)),
                    EventType.JOB_DEFERRED, instance.source(), now, plan.candidate().table().toString(),
                    plan.correlationId(), plan.actor(), new JobDeferred(plan.candidate().planId(),
                    plan.candidate().table(), defer.reason(), defer.message(), defer.retryAfter().orElse(null), now,
                    defer.engine())));
            metrics.deferred(defer.reason());
            Log.infof("Deferred plan %s of %s: %s: %s", plan.candidate().planId(), plan.candidate().table(),
                    defer.reason().id(), defer.message());
        }
    }

    private void supersede(ReceivedPlan plan, String message, Instant now) {
        plans.supersede(plan.candidate().planId(), message, now);
        outbox.append(new EventEnvelope<>(EventIds.derived(plan.eventId(), "superseded"), EventType.JOB_DEFERRED,
                instance.source(), now, plan.candidate().table().toString(), plan.correlationId(), plan.actor(),
                new JobDeferred(plan.candidate().planId(), plan.candidate().table(), DeferReason.SUPERSEDED, message,
                        null, now, null)));
        metrics.deferred(DeferReason.SUPERSEDED);
        Log.infof("Dropped plan %s: %s", plan.candidate().planId(), message);
    }

    /** Updates the gauges from the shared state. */
    public void measure() {
        QuarkusTransaction.requiringNew().run(() -> {
            metrics.queueDepth(plans.queueDepth());
            for (RuleStore.EngineSetting setting : rules.engines()) {
                metrics.slots(setting.engine(), setting.slots(), jobs.inUse(setting.engine()));
            }
        });
    }

    /** Creates each engine's settings from configuration, unless an operator set them before. */
    public void seedEngines() {
        QuarkusTransaction.requiringNew().run(() -> {
            Instant now = clock.instant();
            rules.seedEngine(Engine.NATIVE, config.slots().nativeEngine(), 0, now);
            rules.seedEngine(Engine.SPARK, config.slots().spark(), 0, now);
            rules.seedEngine(Engine.TRINO, config.slots().trino(), config.trino().maxForeignQueries(), now);
        });
    }
}
