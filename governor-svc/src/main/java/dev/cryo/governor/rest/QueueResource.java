package dev.cryo.governor.rest;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.governor.GovernorErrorCode;
import dev.cryo.governor.app.AdmissionService;
import dev.cryo.governor.config.GovernorConfig;
import dev.cryo.governor.domain.FailureStreak;
import dev.cryo.governor.domain.MaintenanceWindow;
import dev.cryo.governor.domain.Policies;
import dev.cryo.governor.domain.TableLock;
import dev.cryo.governor.domain.TablePolicy;
import dev.cryo.governor.persistence.JobStore;
import dev.cryo.governor.persistence.PlanStore;
import dev.cryo.governor.persistence.RuleStore;
import dev.cryo.governor.rest.Views.FailuresView;
import dev.cryo.governor.rest.Views.JobView;
import dev.cryo.governor.rest.Views.LockView;
import dev.cryo.governor.rest.Views.QueueView;
import dev.cryo.governor.rest.Views.TableView;
import dev.cryo.governor.rest.Views.WaitingView;
import dev.cryo.platform.error.CryoException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/** What waits, what runs and who holds which table. Reads only, open to everyone. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class QueueResource {

    private final PlanStore plans;
    private final JobStore jobs;
    private final RuleStore rules;
    private final GovernorConfig config;
    private final AdmissionService admissions;

    QueueResource(PlanStore plans, JobStore jobs, RuleStore rules, GovernorConfig config, AdmissionService admissions) {
        this.plans = plans;
        this.jobs = jobs;
        this.rules = rules;
        this.config = config;
        this.admissions = admissions;
    }

    /** Admitted jobs (not started yet), running jobs with their last heartbeat, and waiting plans with their reasons. */
    @GET
    @Path("queue")
    public QueueView queue() {
        List<JobView> unfinished = jobs.unfinished().stream().map(QueueResource::view).toList();
        return new QueueView(unfinished.stream().filter(job -> job.startedAt() == null).toList(),
                unfinished.stream().filter(job -> job.startedAt() != null).toList(),
                plans.waiting().stream().map(QueueResource::view).toList());
    }

    @GET
    @Path("locks")
    public List<LockView> locks() {
        return jobs.locks().stream().map(QueueResource::view).toList();
    }

    /** Where one plan stands: queued, admitted, done, or superseded (replaced, or dropped as stale) and why. */
    @GET
    @Path("plans/{planId}")
    public PlanStore.PlanState plan(@PathParam("planId") String planId) {
        return plans.state(planId).orElseThrow(() -> new CryoException(GovernorErrorCode.PLAN_NOT_FOUND,
                "Cannot show plan " + planId + ": it never reached the governor"));
    }

    @GET
    @Path("tables/{table}")
    public TableView table(@PathParam("table") String tableId) {
        TableId table;
        try {
            table = TableId.parse(tableId);
        } catch (IllegalArgumentException e) {
            throw new CryoException(GovernorErrorCode.INVALID_TABLE, "Cannot show table '" + tableId + "': "
                    + e.getMessage());
        }
        TablePolicy policy = Policies.resolve(table, rules.pauses(), rules.policies(), config.cooldown(),
                Engine.fromId(config.defaultEngine()));
        return new TableView(table.toString(), policy.pause().map(RuleResource::view).orElse(null),
                policy.cooldown().toString(), policy.windows().stream().map(MaintenanceWindow::expression).toList(),
                policy.engine().id(), policy.rules(), jobs.lockOf(table).map(QueueResource::view).orElse(null),
                jobs.lastFinish(table).orElse(null), plans.waiting(table).stream().map(QueueResource::view).toList(),
                failures(table));
    }

    private FailuresView failures(TableId table) {
        FailureStreak streak = admissions.failures(table);
        if (streak.failures() == 0) {
            return null;
        }
        int maxAttempts = config.failures().maxAttempts();
        return new FailuresView(streak.failures(), maxAttempts, streak.failures() >= maxAttempts, streak.errorCode(),
                streak.message(), streak.lastFailedAt());
    }

    private static JobView view(JobStore.Job job) {
        return new JobView(job.jobId(), job.planId(), job.table().toString(), job.engine().id(), job.slot(),
                job.attempt(), job.admittedAt(), job.admittedBy(), job.leaseExpiresAt(), job.startedAt(),
                job.executorId(), job.lastHeartbeatAt(), job.operation(), job.chunksDone(), job.chunksTotal(), job.note());
    }

    private static WaitingView view(PlanStore.WaitingPlan plan) {
        return new WaitingView(plan.planId(), plan.table(), plan.score(), plan.plannedAt(), plan.receivedAt(),
                plan.reason(), plan.message(), plan.retryAfter(), plan.deferredAt(), plan.engine(),
                plan.supersedesPlanId());
    }

    private static LockView view(TableLock lock) {
        return new LockView(lock.table().toString(), lock.jobId(), lock.planId(), lock.leaseExpiresAt());
    }
}
