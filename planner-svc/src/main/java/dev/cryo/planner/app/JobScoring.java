package dev.cryo.planner.app;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationStatus;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.planner.config.PlannerConfig;
import dev.cryo.planner.domain.JobScores.FinishedJob;
import dev.cryo.planner.domain.JobScores;
import dev.cryo.planner.persistence.JobScoreStore.StoredScore;
import dev.cryo.planner.persistence.JobScoreStore;
import dev.cryo.planner.persistence.PlanStore;
import dev.cryo.planner.persistence.StoredGrade;
import dev.cryo.planner.persistence.StoredPlan;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.messaging.EventIds;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Measures every plan's promise: scores each finished job against the first grade that shows it
 * ({@link JobScores}) and answers with the {@link JobScored} envelopes to publish.
 *
 * <p>A grade shows a job when its scan started after the job's last change, or after its end when
 * it changed nothing (the scanner scans a table again as soon as a job on it finishes). The latest
 * grade before that may predate another job's change, so even a no-op waits for it. A job that no
 * such grade follows within {@code cryo.planner.score-wait} is published without an actual score,
 * saying so.
 *
 * <p>Everything runs with the table's row locked ({@link PlanStore#lockTable}), like planning, so a
 * job's end and the grade after it never miss each other. Idempotency: a job is scored once
 * ({@code scored_at}); the input that scored it is remembered ({@code trigger_event_id}) and a
 * redelivered input republishes the same envelopes.
 */
@ApplicationScoped
public class JobScoring {

    /** The setting that bounds the wait for a grade after a job, as named in messages. */
    public static final String SCORE_WAIT_SETTING = "cryo.planner.score-wait";

    private final PlanStore plans;
    private final JobScoreStore scores;
    private final PlannerConfig config;
    private final ServiceInstance instance;
    private final Clock clock;
    private final MeterRegistry registry;

    JobScoring(PlanStore plans, JobScoreStore scores, PlannerConfig config, ServiceInstance instance, Clock clock,
               MeterRegistry registry) {
        this.plans = plans;
        this.scores = scores;
        this.config = config;
        this.instance = instance;
        this.clock = clock;
        this.registry = registry;
    }

    /**
     * An executor's report: an operation's effect is recorded; a job's end is scored at once when
     * the latest grade already shows it (a scan that started after the job's last change).
     */
    @Transactional
    public List<EventEnvelope<JobScored>> reported(EventEnvelope<CryoEvent> envelope) {
        if (envelope.data() instanceof OperationFinished operation && operation.status() == OperationStatus.SUCCEEDED) {
            scores.recordOperation(operation.jobId(), operation.planId(), operation.table(), operation.operation(),
                    operation.changed(), operation.finishedAt());
            if (Boolean.FALSE.equals(operation.changed())) {
                registry.counter("cryo.planner.jobs.noop.operations", "operation", operation.operation().id()).increment();
            }
        } else if (envelope.data() instanceof JobFinished finished) {
            Optional<StoredGrade> latest = plans.lockTable(finished.table());
            if (scores.finished(finished.jobId()).isEmpty() && scores.score(finished.jobId()).isEmpty()) {
                FinishedJob job = scores.recordFinished(finished.jobId(), finished.planId(), finished.table(),
                        finished.outcome(), finished.operationsSucceeded(), finished.finishedAt(), envelope.correlationId(),
                        envelope.actor());
                latest.filter(grade -> !grade.waitingForScan()).ifPresent(grade -> {
                    Optional<TableScanned> scan = plans.findScan(finished.table(), grade.grade().scanId());
                    if (scan.isPresent() && job.shownBy(startOf(scan.get()))) {
                        score(job, grade.grade(), envelope.id());
                    } else {
                        Log.infof("%s: job %s finished; its score waits for the grade of a scan after its last change",
                                job.table(), job.jobId());
                    }
                });
            }
        }
        return envelopes(scores.scoresTriggeredBy(envelope.id()));
    }

    /**
     * A grade whose scan is stored: scores the table's finished jobs that it shows. The caller
     * holds the table's lock and publishes {@link #scoredBy} after its transaction.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void graded(TableGraded grade, TableScanned scan, String triggerEventId) {
        Instant started = startOf(scan);
        for (FinishedJob job : scores.waiting(grade.table())) {
            if (job.shownBy(started)) {
                score(job, grade, triggerEventId);
            }
        }
    }

    /** The scores that handling {@code eventId} produced, to publish (again). */
    public List<EventEnvelope<JobScored>> scoredBy(String eventId) {
        return envelopes(scores.scoresTriggeredBy(eventId));
    }

    /**
     * Publishes, without an actual score, the jobs that no grade has shown within the wait;
     * returns their envelopes.
     */
    @Transactional
    public List<EventEnvelope<JobScored>> sweep(int limit) {
        Instant now = now();
        List<EventEnvelope<JobScored>> published = new ArrayList<>();
        for (FinishedJob job : scores.waitingSince(now.minus(config.scoreWait()), limit)) {
            Optional<MaintenancePlanned> plan = plans.plan(job.planId()).map(StoredPlan::plan);
            if (plan.isEmpty()) {
                forget(job);
                continue;
            }
            JobScored score = JobScores.ungraded(job, plan.get(), config.scoreWait(), SCORE_WAIT_SETTING, now);
            String eventId = EventIds.derived(job.jobId(), "scored");
            scores.saveScore(score, eventId, eventId).ifPresent(stored -> {
                published.add(envelope(stored));
                count(score);
                Log.warnf("%s: job %s: %s", job.table(), job.jobId(), score.message());
            });
        }
        return published;
    }

    /** A job's score, once it has one. */
    public Optional<JobScored> score(String jobId) {
        return scores.score(jobId).map(StoredScore::score);
    }

    /** The scores of a plan's jobs, newest first. */
    public List<JobScored> scoresOfPlan(String planId) {
        return scores.scoresOfPlan(planId).stream().map(StoredScore::score).toList();
    }

    /** Scores of jobs that finished at or after {@code since}, of one table or all, newest first. */
    public List<JobScored> scores(Optional<TableId> table, Instant since, int limit) {
        return scores.scores(table, since, limit).stream().map(StoredScore::score).toList();
    }

    private void score(FinishedJob job, TableGraded grade, String triggerEventId) {
        Optional<MaintenancePlanned> plan = plans.plan(job.planId()).map(StoredPlan::plan);
        if (plan.isEmpty()) {
            forget(job);
            return;
        }
        JobScored score = JobScores.scored(job, plan.get(), grade, now());
        if (scores.saveScore(score, EventIds.derived(job.jobId(), "scored"), triggerEventId).isPresent()) {
            count(score);
            Log.infof("%s: job %s: %s", job.table(), job.jobId(), score.message());
        }
    }

    /** A job of a plan this planner does not know (another deployment's, or purged): nothing to score against. */
    private void forget(FinishedJob job) {
        Log.warnf("%s: job %s finished, but its plan %s is not stored here: it is not scored", job.table(), job.jobId(),
                job.planId());
        scores.forget(job.jobId());
        registry.counter("cryo.planner.jobs.scored", "result", "unknown-plan").increment();
    }

    private void count(JobScored score) {
        String result = score.noOp() ? "no-op" : score.actualScore() == null ? "ungraded" : score.reached() ? "reached" : "short";
        registry.counter("cryo.planner.jobs.scored", "result", result).increment();
        if (score.shortfall() != null) {
            registry.summary("cryo.planner.jobs.score.shortfall").record(score.shortfall());
        }
    }

    /** When a scan started reading the table: every commit before it is in what it read. */
    static Instant startOf(TableScanned scan) {
        return scan.scannedAt().minus(scan.scanDuration());
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private List<EventEnvelope<JobScored>> envelopes(List<StoredScore> stored) {
        return stored.stream().map(this::envelope).toList();
    }

    /** The envelope of a stored score: the same id, time and attributes every time it is published. */
    private EventEnvelope<JobScored> envelope(StoredScore stored) {
        JobScored score = stored.score();
        return new EventEnvelope<>(stored.eventId(), EventType.JOB_SCORED, instance.source(), score.scoredAt(),
                score.table().toString(), stored.correlationId() != null ? stored.correlationId() : stored.eventId(),
                stored.actor(), score);
    }
}
