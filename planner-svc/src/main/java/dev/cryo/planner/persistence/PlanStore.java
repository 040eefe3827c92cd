package dev.cryo.planner.persistence;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.planner.domain.PlanStatus;
import dev.cryo.planner.domain.Supersession.PriorPlan;
import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.persistence.EntityTransactions;
import dev.cryo.platform.persistence.TableScanKey;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The planner's tables (see {@code V1__planner.sql}) as Panache entities: scans ({@link ScanEntity}),
 * the latest grade per table ({@link TableStateEntity}) and the plans ({@link PlanEntity}). Writes run
 * inside the caller's transaction, under the table's lock ({@link #lockTable}).
 */
@ApplicationScoped
public class PlanStore {

    private static final Sort NEWEST_PLANS_FIRST = Sort.descending("plannedAt", "planId");

    /** A stored scan's identity and age, without its payload. */
    public record ScanHeader(String scanId, Instant scannedAt) {
    }

    /**
     * Locks the table for the rest of the transaction (creating its row if needed) and returns its
     * latest grade. Both consumers and the job scoring lock it first, so a grade and its scan arriving
     * at the same moment on their two topics are handled one after the other.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<StoredGrade> lockTable(TableId table) {
        return inTransaction("lock table " + table, () -> {
            EntityTransactions.lock(TableStateEntity.getEntityManager(), "planner-table", table.toString());
            TableStateEntity row = TableStateEntity.findById(table.toString());
            if (row == null) {
                row = new TableStateEntity();
                row.tableId = table.toString();
                row.persist();
            }
            return grade(row);
        });
    }

    /** The latest grade of a table, if any. */
    public Optional<StoredGrade> latestGrade(TableId table) {
        return inTransaction("read the grade of " + table, () ->
                TableStateEntity.<TableStateEntity>findByIdOptional(table.toString()).flatMap(PlanStore::grade));
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void saveGrade(EventEnvelope<TableGraded> envelope, boolean waitingForScan) {
        TableGraded grade = envelope.data();
        inTransaction("store the grade of " + grade.table(), () -> {
            TableStateEntity row = lockedRow(grade.table());
            row.gradeEventId = envelope.id();
            row.gradeCorrelationId = envelope.correlationId();
            row.gradeActor = envelope.actor();
            row.gradedAt = grade.gradedAt();
            row.scanId = grade.scanId();
            row.gradePayload = Jdbc.json(grade);
            row.waitingForScan = waitingForScan;
            return null;
        });
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void stopWaiting(TableId table) {
        inTransaction("update " + table, () -> {
            lockedRow(table).waitingForScan = false;
            return null;
        });
    }

    /** Stores a scan (once: a redelivered scan changes nothing) and keeps only the newest {@code keep} of its table. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void saveScan(TableScanned scan, int keep) {
        String tableId = scan.table().toString();
        inTransaction("store scan " + scan.scanId(), () -> {
            if (ScanEntity.findById(new TableScanKey(tableId, scan.scanId())) == null) {
                ScanEntity row = new ScanEntity();
                row.tableId = tableId;
                row.scanId = scan.scanId();
                row.scannedAt = scan.scannedAt();
                row.payload = Jdbc.json(scan);
                row.persist();
            }
            // ids only: the payloads of the kept scans are not read to prune the others
            List<String> kept = ScanEntity.getEntityManager().createQuery("select s.scanId from ScanEntity s where s.tableId = ?1 "
                    + "order by s.scannedAt desc, s.scanId desc", String.class).setParameter(1, tableId).setMaxResults(keep)
                    .getResultList();
            return kept.isEmpty() ? ScanEntity.delete("tableId", tableId)
                    : ScanEntity.delete("tableId = ?1 and scanId not in ?2", tableId, kept);
        });
    }

    public Optional<TableScanned> findScan(TableId table, String scanId) {
        return inTransaction("read scan " + scanId + " of " + table, () ->
                ScanEntity.<ScanEntity>findByIdOptional(new TableScanKey(table.toString(), scanId))
                        .map(row -> Jdbc.read(row.payload, TableScanned.class)));
    }

    public Optional<ScanHeader> newestScan(TableId table) {
        return inTransaction("read the scans of " + table, () -> ScanEntity.getEntityManager().createQuery(
                        "select s.scanId, s.scannedAt from ScanEntity s where s.tableId = ?1 order by s.scannedAt desc, s.scanId desc",
                        Object[].class).setParameter(1, table.toString()).setMaxResults(1).getResultStream().findFirst()
                .map(row -> new ScanHeader((String) row[0], (Instant) row[1])));
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void insertPlan(StoredPlan stored, String actor) {
        MaintenancePlanned plan = stored.plan();
        inTransaction("store plan " + plan.planId(), () -> {
            PlanEntity row = new PlanEntity();
            row.planId = plan.planId();
            row.tableId = plan.table().toString();
            row.eventId = stored.eventId();
            row.gradeEventId = stored.gradeEventId();
            row.triggerEventId = stored.triggerEventId();
            row.correlationId = stored.correlationId();
            row.actor = actor;
            row.scanId = plan.scanId();
            row.plannedAt = plan.plannedAt();
            row.status = stored.status().name();
            row.statusChangedAt = stored.statusChangedAt();
            row.supersedesPlanId = plan.supersedesPlanId();
            row.supersededByPlanId = stored.supersededByPlanId();
            row.payload = Jdbc.json(plan);
            row.persistAndFlush();
            return null;
        });
    }

    /** Names the plan that replaces {@code planId}; a plan that had not started becomes SUPERSEDED. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void markSuperseded(String planId, String byPlanId, Instant at) {
        inTransaction("supersede plan " + planId, () -> {
            PlanEntity.<PlanEntity>findByIdOptional(planId).ifPresent(row -> {
                row.supersededByPlanId = byPlanId;
                if (PlanStatus.PLANNED.name().equals(row.status)) {
                    row.status = PlanStatus.SUPERSEDED.name();
                    row.statusChangedAt = at;
                }
            });
            return null;
        });
    }

    /**
     * Records an executor's report on a plan: STARTED moves a plan that has not finished, FINISHED
     * any plan. Reports arrive once or more, in order per table; a plan this planner does not know
     * (another deployment's, an old test's) changes nothing. One conditional update, so a report never
     * moves a plan back from FINISHED whatever else writes the row meanwhile.
     *
     * @return true when a stored plan changed
     */
    public boolean recordReport(String planId, PlanStatus status, Instant at) {
        if (status != PlanStatus.STARTED && status != PlanStatus.FINISHED) {
            throw new IllegalArgumentException("Cannot record a " + status + " report: executors report STARTED or FINISHED");
        }
        return inTransaction("record the report on plan " + planId, () -> PlanEntity.update(
                "status = ?1, statusChangedAt = ?2 where planId = ?3 and status <> ?4 and status <> ?5",
                status.name(), at, planId, PlanStatus.FINISHED.name(), status.name()) == 1);
    }

    /** The newest plans of a table, as supersession needs them. */
    public List<PriorPlan> priorPlans(TableId table) {
        return inTransaction("read the plans of " + table, () -> PlanEntity.getEntityManager().createQuery(
                        "select p.planId, p.plannedAt, p.status from PlanEntity p where p.tableId = ?1 "
                                + "order by p.plannedAt desc, p.planId desc", Object[].class)
                .setParameter(1, table.toString()).setMaxResults(10).getResultList().stream()
                .map(row -> new PriorPlan((String) row[0], (Instant) row[1], PlanStatus.valueOf((String) row[2]))).toList());
    }

    /** A table's plans, newest first. */
    public List<StoredPlan> plans(TableId table, int limit) {
        return inTransaction("read the plans of " + table, () -> PlanEntity.<PlanEntity>find("tableId", NEWEST_PLANS_FIRST,
                table.toString()).page(0, limit).list().stream().map(PlanStore::stored).toList());
    }

    /** One plan by its id. */
    public Optional<StoredPlan> plan(String planId) {
        return inTransaction("read plan " + planId, () ->
                PlanEntity.<PlanEntity>findByIdOptional(planId).map(PlanStore::stored));
    }

    /** The plans that handling {@code eventId} produced, to publish (again). */
    public List<StoredPlan> plansTriggeredBy(String eventId) {
        return inTransaction("read the plans of event " + eventId, () -> PlanEntity.<PlanEntity>find("triggerEventId",
                Sort.ascending("plannedAt", "planId"), eventId).list().stream().map(PlanStore::stored).toList());
    }

    /** The table's row; the caller locked it ({@link #lockTable}) earlier in this transaction. */
    private static TableStateEntity lockedRow(TableId table) {
        TableStateEntity row = TableStateEntity.findById(table.toString());
        if (row == null) {
            throw new IllegalStateException("Cannot update " + table + ": lockTable was not called in this transaction");
        }
        return row;
    }

    private static Optional<StoredGrade> grade(TableStateEntity row) {
        if (row.gradeEventId == null) {
            return Optional.empty();
        }
        return Optional.of(new StoredGrade(row.gradeEventId, row.gradeCorrelationId, row.gradeActor,
                Jdbc.read(row.gradePayload, TableGraded.class), row.waitingForScan));
    }

    private static StoredPlan stored(PlanEntity row) {
        return new StoredPlan(row.eventId, row.gradeEventId, row.triggerEventId, row.correlationId,
                PlanStatus.valueOf(row.status), row.statusChangedAt, row.supersededByPlanId,
                Jdbc.read(row.payload, MaintenancePlanned.class));
    }

    private static <T> T inTransaction(String action, Supplier<T> work) {
        return EntityTransactions.call(CommonErrorCode.DEPENDENCY_UNAVAILABLE, action, work);
    }
}
