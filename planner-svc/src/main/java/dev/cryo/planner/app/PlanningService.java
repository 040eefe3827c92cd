package dev.cryo.planner.app;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.planner.PlannerErrorCode;
import dev.cryo.planner.config.PlannerConfig;
import dev.cryo.planner.domain.PlanLimits;
import dev.cryo.planner.domain.PlanStatus;
import dev.cryo.planner.domain.Planner;
import dev.cryo.planner.domain.Planning;
import dev.cryo.planner.domain.Supersession;
import dev.cryo.planner.domain.TablePolicies;
import dev.cryo.planner.domain.Trigger;
import dev.cryo.planner.persistence.PlanStore;
import dev.cryo.planner.persistence.StoredGrade;
import dev.cryo.planner.persistence.StoredPlan;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.messaging.EventIds;
import dev.cryo.platform.messaging.ProcessedEvents;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * Stores scans and grades, plans a grade once its scan is stored, and answers with the plan
 * envelopes to publish.
 *
 * <p>Scans and grades come on two topics, so a grade may arrive before its scan. Rather than
 * retrying (which would hold up every other table behind it on the consumer), the grade is
 * parked as the table's latest grade, "waiting for scan"; the scan's arrival plans it. A grade
 * whose scan is older than a newer stored scan is skipped: the newer scan's grade follows.
 *
 * <p>Idempotency: each input's id is recorded in the transaction of its work, and the plans it
 * produced remember it ({@code trigger_event_id}); a redelivered input does no work again but
 * republishes those plans under the same CloudEvents ids.
 *
 * <p>Every grade whose scan is stored also scores the finished jobs it shows ({@link JobScoring});
 * the answer carries those scores after the plans.
 */
@ApplicationScoped
public class PlanningService {

    static final String SCANS_CONSUMER = "planner-scans";
    static final String GRADES_CONSUMER = "planner-grades";

    private final PlanStore store;
    private final ProcessedEvents processedEvents;
    private final TablePolicies policies;
    private final PlannerConfig config;
    private final ServiceInstance instance;
    private final Clock clock;
    private final MeterRegistry registry;
    private final JobScoring scoring;

    PlanningService(PlanStore store, ProcessedEvents processedEvents, TablePolicies policies, PlannerConfig config,
                    ServiceInstance instance, Clock clock, MeterRegistry registry, JobScoring scoring) {
        this.scoring = scoring;
        this.store = store;
        this.processedEvents = processedEvents;
        this.policies = policies;
        this.config = config;
        this.instance = instance;
        this.clock = clock;
        this.registry = registry;
    }

    /** Stores a scan; plans the table's latest grade if it was waiting for this scan. */
    @Transactional
    public List<EventEnvelope<?>> scanned(EventEnvelope<TableScanned> envelope) {
        TableScanned scan = envelope.data();
        Optional<StoredGrade> latest = store.lockTable(scan.table());
        if (processedEvents.markProcessed(SCANS_CONSUMER, envelope.id())) {
            store.saveScan(scan, config.scansKeptPerTable());
            latest.filter(StoredGrade::waitingForScan).ifPresent(waiting -> {
                if (waiting.grade().scanId().equals(scan.scanId())) {
                    Log.infof("%s: scan %s arrived, planning its grade %s", scan.table(), scan.scanId(), waiting.eventId());
                    store.stopWaiting(scan.table());
                    plan(waiting, scan, envelope.id());
                } else if (scan.scannedAt().isAfter(waiting.grade().gradedAt())) {
                    Log.infof("%s: grade %s waited for scan %s, but the newer scan %s arrived: its grade will be "
                            + "planned instead", scan.table(), waiting.eventId(), waiting.grade().scanId(), scan.scanId());
                    store.stopWaiting(scan.table());
                    count("superseded-scan");
                }
            });
        }
        return results(envelope.id());
    }

    /** Stores a grade as the table's latest and plans it if its scan is stored. */
    @Transactional
    public List<EventEnvelope<?>> graded(EventEnvelope<TableGraded> envelope) {
        TableGraded grade = envelope.data();
        Optional<StoredGrade> latest = store.lockTable(grade.table());
        if (processedEvents.markProcessed(GRADES_CONSUMER, envelope.id())) {
            handleGrade(envelope, latest);
        }
        return results(envelope.id());
    }

    private void handleGrade(EventEnvelope<TableGraded> envelope, Optional<StoredGrade> latest) {
        TableGraded grade = envelope.data();
        if (latest.isPresent() && latest.get().grade().gradedAt().isAfter(grade.gradedAt())) {
            Log.infof("%s: skipping grade %s of %s: the newer grade %s of %s is stored", grade.table(), envelope.id(),
                    grade.gradedAt(), latest.get().eventId(), latest.get().grade().gradedAt());
            count("superseded-grade");
            return;
        }
        Optional<StoredPlanInput> input = scanFor(grade);
        if (input.isEmpty()) {
            return;
        }
        StoredGrade stored = new StoredGrade(envelope.id(), envelope.correlationId(), envelope.actor(), grade,
                input.get().scan() == null);
        store.saveGrade(envelope, stored.waitingForScan());
        if (stored.waitingForScan()) {
            Log.infof("%s: grade %s waits for its scan %s, which has not arrived yet", grade.table(), envelope.id(),
                    grade.scanId());
            count("waiting-for-scan");
            return;
        }
        plan(stored, input.get().scan(), envelope.id());
    }

    /** The scan a grade names: present, absent but expected (scan null), or empty when the grade is stale. */
    private Optional<StoredPlanInput> scanFor(TableGraded grade) {
        Optional<TableScanned> scan = store.findScan(grade.table(), grade.scanId());
        Optional<PlanStore.ScanHeader> newest = store.newestScan(grade.table());
        if (scan.isPresent()) {
            if (newest.isPresent() && isNewer(newest.get(), scan.get())) {
                Log.infof("%s: skipping the grade of scan %s: the newer scan %s is stored and its grade will follow",
                        grade.table(), grade.scanId(), newest.get().scanId());
                count("superseded-scan");
                return Optional.empty();
            }
            return Optional.of(new StoredPlanInput(scan.get()));
        }
        // A grade comes after its scan: a stored scan newer than the grade is newer than the graded scan.
        if (newest.isPresent() && newest.get().scannedAt().isAfter(grade.gradedAt())) {
            Log.infof("%s: skipping the grade of scan %s, which is not stored: the newer scan %s is", grade.table(),
                    grade.scanId(), newest.get().scanId());
            count("superseded-scan");
            return Optional.empty();
        }
        return Optional.of(new StoredPlanInput(null));
    }

    /**
     * Whether the newest stored scan is another, later scan. PostgreSQL keeps microseconds and
     * rounds (sometimes up), so the stored time of the graded scan itself may read later than its
     * nanosecond time in the event: compare ids first, then both times at microseconds.
     */
    static boolean isNewer(PlanStore.ScanHeader newest, TableScanned scan) {
        return !newest.scanId().equals(scan.scanId())
                && newest.scannedAt().truncatedTo(ChronoUnit.MICROS).isAfter(scan.scannedAt().truncatedTo(ChronoUnit.MICROS));
    }

    private record StoredPlanInput(TableScanned scan) {
    }

    private void plan(StoredGrade grade, TableScanned scan, String triggerEventId) {
        scoring.graded(grade.grade(), scan, triggerEventId);
        TableId table = scan.table();
        Planning planning = planOrReject(grade, scan);
        if (!planning.hasPlan()) {
            Log.infof("%s: no plan for scan %s: %s", table, scan.scanId(), String.join("; ", planning.notes()));
            count(grade.grade().deductions().isEmpty() || grade.grade().grade() == Grade.A ? "healthy" : "nothing-to-do");
            return;
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        String planId = EventIds.derived(grade.eventId(), "plan");
        Optional<String> superseded = Supersession.supersededPlan(store.priorPlans(table));
        MaintenancePlanned plan = planning.toEvent(planId, now, superseded.orElse(null), grade.actor());
        int planBytes;
        try {
            planBytes = PlanLimits.requireFitsOneRecord(plan);
        } catch (IllegalArgumentException e) {
            throw new CryoException(PlannerErrorCode.PLAN_TOO_LARGE, e.getMessage(), e);
        }
        registry.summary("cryo.planner.plan.bytes").record(planBytes);
        superseded.ifPresent(old -> store.markSuperseded(old, planId, now));
        store.insertPlan(new StoredPlan(EventIds.derived(grade.eventId(), "maintenance-planned"), grade.eventId(),
                triggerEventId, grade.correlationId(), PlanStatus.PLANNED, now, null, plan), grade.actor());
        Log.infof("%s: plan %s from scan %s (score %d -> %d)%s: %s", table, planId, scan.scanId(), plan.score(),
                plan.expectedScore(), superseded.map(old -> ", supersedes " + old).orElse(""),
                String.join("; ", planning.notes()));
        count("planned");
        registry.summary("cryo.planner.plan.chunks").record(plan.operations().stream()
                .mapToInt(operation -> operation.chunks().size()).sum());
    }

    /** Plans a grade from the stored scan without storing or publishing anything. */
    public Planning preview(StoredGrade grade, TableScanned scan) {
        return planOrReject(grade, scan);
    }

    private Planning planOrReject(StoredGrade grade, TableScanned scan) {
        try {
            return registry.timer("cryo.planner.planning").record(() -> Planner.plan(grade.grade(), scan,
                    policies.policyFor(scan.table()), Trigger.ofActor(grade.actor())));
        } catch (IllegalArgumentException e) {
            throw new CryoException(PlannerErrorCode.UNPLANNABLE_SCAN, e.getMessage(), e);
        }
    }

    /** The envelope of a stored plan: the same id, time and attributes every time it is published. */
    public EventEnvelope<MaintenancePlanned> envelope(StoredPlan stored) {
        MaintenancePlanned plan = stored.plan();
        return new EventEnvelope<>(stored.eventId(), EventType.MAINTENANCE_PLANNED, instance.source(), plan.plannedAt(),
                plan.table().toString(), stored.correlationId(), plan.actor(), plan);
    }

    /** What handling an input produced, to publish (again): its plans, then the job scores. */
    private List<EventEnvelope<?>> results(String eventId) {
        List<EventEnvelope<?>> results = new java.util.ArrayList<>();
        store.plansTriggeredBy(eventId).stream().map(this::envelope).forEach(results::add);
        results.addAll(scoring.scoredBy(eventId));
        return results;
    }

    private void count(String outcome) {
        registry.counter("cryo.planner.grades", "outcome", outcome).increment();
    }
}
