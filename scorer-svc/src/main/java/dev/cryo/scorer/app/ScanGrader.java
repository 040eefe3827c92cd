package dev.cryo.scorer.app;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.messaging.EventIds;
import dev.cryo.platform.messaging.EventPublisher;
import dev.cryo.scorer.ScorerErrorCode;
import dev.cryo.scorer.config.ScorerConfig;
import dev.cryo.scorer.persistence.GradeStore;
import dev.cryo.scorer.persistence.GradingRecord;
import dev.cryo.scorer.persistence.Recorded;
import dev.cryo.scoring.Grading;
import dev.cryo.scoring.PolicyBook;
import dev.cryo.scoring.Scorer;
import dev.cryo.scoring.SnapshotExpiry;
import dev.cryo.scoring.TablePolicy;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;

/**
 * Grades every scan: a TableGraded on {@code cryo.table-health.v1} for each, and a GradeChanged on
 * {@code cryo.grade-changes.v1} when the band moves.
 *
 * <p>Publishing happens here rather than in the platform's {@code EventConsumers}, so that the broker's
 * acknowledgement can be recorded: a scan redelivered after its events were acknowledged publishes
 * nothing again (subscribers of grade changes outside Cryo may not deduplicate), and one redelivered
 * before that republishes its stored events under the same ids.
 */
@ApplicationScoped
public class ScanGrader {

    private final EventPublisher publisher;
    private final PolicyBook policies;
    private final GradeStore store;
    private final GradeMetrics metrics;
    private final ServiceInstance instance;
    private final SnapshotExpiry expiry;
    private final Clock clock;

    ScanGrader(@Channel(Topics.TABLE_HEALTH) Emitter<CryoEvent> health,
               @Channel(Topics.GRADE_CHANGES) Emitter<CryoEvent> gradeChanges, PolicyBook policies, GradeStore store,
               GradeMetrics metrics, ServiceInstance instance, ScorerConfig config, Clock clock) {
        this.publisher = new EventPublisher(Map.of(Topics.TABLE_HEALTH, health, Topics.GRADE_CHANGES, gradeChanges));
        this.policies = policies;
        this.store = store;
        this.metrics = metrics;
        this.instance = instance;
        this.expiry = SnapshotExpiry.defaults(config.expiry().retention(), config.expiry().retainLast());
        this.clock = clock;
    }

    /** Grades one TableScanned event and publishes what it leads to (see the class comment). */
    public void grade(EventEnvelope<CryoEvent> envelope) {
        if (!(envelope.data() instanceof TableScanned scan)) {
            throw new CryoException(ScorerErrorCode.UNEXPECTED_EVENT, "Cannot grade event " + envelope.id() + ": it is a "
                    + envelope.type().id() + ", expected " + EventType.TABLE_SCANNED.id());
        }
        Instant now = Instant.now(clock);
        TablePolicy policy = policies.effectiveFor(scan.table(), scan.properties());
        policy.problems().forEach(problem -> Log.warnf("Table %s: %s", scan.table(), problem));
        Grading grading = Scorer.grade(scan, policy, expiry, now);
        TableGraded graded = new TableGraded(scan.table(), scan.scanId(), scan.snapshotId(), now, grading.score(),
                grading.grade(), grading.sizeScale(), grading.deductions(), grading.notEvaluated(), grading.held(),
                policy.limits());
        EventEnvelope<TableGraded> gradedEnvelope = new EventEnvelope<>(EventIds.derived(envelope.id(), "graded"),
                EventType.TABLE_GRADED, instance.source(), now, scan.table().toString(), envelope.correlationId(),
                envelope.actor(), graded);
        Recorded recorded = store.record(new GradingRecord(gradedEnvelope, EventIds.derived(envelope.id(), "grade-changed"),
                scan.scannedAt(), scan.totals().dataBytes(), scan.properties(), grading.fixes()));
        switch (recorded.outcome()) {
            case STORED_PUBLISHED -> {
                Log.infof("Scan %s of %s was graded and published before (event %s redelivered): nothing to publish",
                        scan.scanId(), scan.table(), envelope.id());
                return;
            }
            case STORED_UNPUBLISHED -> Log.infof("Scan %s of %s was graded before: publishing its stored events again",
                    scan.scanId(), scan.table());
            case NEW_HISTORY_ONLY -> Log.infof("Scan %s of %s is older than the table's current grade: stored in the "
                    + "history only", scan.scanId(), scan.table());
            case NEW_CURRENT -> {
                TableGraded current = recorded.graded().data();
                metrics.graded(current.table().toString(), current.score(), current.grade(), current.deductions());
            }
        }
        publisher.publish(recorded.toPublish());
        store.markPublished(scan.table(), scan.scanId());
        Log.debugf("Graded %s: %d (%s)%s", scan.table(), recorded.graded().data().score(), recorded.graded().data().grade(),
                recorded.change().map(change -> ", grade changed from " + change.data().previousGrade()).orElse(""));
    }
}
