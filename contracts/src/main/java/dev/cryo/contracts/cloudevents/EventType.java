package dev.cryo.contracts.cloudevents;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.GradeChanged;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobHeartbeat;
import dev.cryo.contracts.event.JobRefused;
import dev.cryo.contracts.event.JobRevoked;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;

import java.util.Arrays;
import java.util.Optional;

/**
 * Every event type: its CloudEvents {@code type}, its payload record and its topic. A breaking
 * change to a payload is a new type ({@code .v2}) on a new topic.
 */
public enum EventType {
    TABLE_CHANGED("dev.cryo.table.changed.v1", TableChanged.class, Topics.TABLE_CHANGED),
    TABLE_SCANNED("dev.cryo.table.scanned.v1", TableScanned.class, Topics.TABLE_SCANNED),
    TABLE_GRADED("dev.cryo.table.graded.v1", TableGraded.class, Topics.TABLE_HEALTH),
    GRADE_CHANGED("dev.cryo.grade.changed.v1", GradeChanged.class, Topics.GRADE_CHANGES),
    MAINTENANCE_PLANNED("dev.cryo.maintenance.planned.v1", MaintenancePlanned.class, Topics.PLANS),
    JOB_ADMITTED("dev.cryo.job.admitted.v1", JobAdmitted.class, Topics.JOBS_ADMITTED),
    JOB_REVOKED("dev.cryo.job.revoked.v1", JobRevoked.class, Topics.JOBS_ADMITTED),
    JOB_DEFERRED("dev.cryo.job.deferred.v1", JobDeferred.class, Topics.JOBS_DEFERRED),
    JOB_STARTED("dev.cryo.job.started.v1", JobStarted.class, Topics.JOBS_RESULTS),
    JOB_HEARTBEAT("dev.cryo.job.heartbeat.v1", JobHeartbeat.class, Topics.JOBS_RESULTS),
    OPERATION_FINISHED("dev.cryo.operation.finished.v1", OperationFinished.class, Topics.JOBS_RESULTS),
    JOB_REFUSED("dev.cryo.job.refused.v1", JobRefused.class, Topics.JOBS_RESULTS),
    JOB_FINISHED("dev.cryo.job.finished.v1", JobFinished.class, Topics.JOBS_RESULTS),
    JOB_SCORED("dev.cryo.job.scored.v1", JobScored.class, Topics.JOBS_RESULTS);

    private final String id;
    private final Class<? extends CryoEvent> payloadType;
    private final String topic;

    EventType(String id, Class<? extends CryoEvent> payloadType, String topic) {
        this.id = id;
        this.payloadType = payloadType;
        this.topic = topic;
    }

    /** The CloudEvents {@code type} attribute. */
    public String id() {
        return id;
    }

    public Class<? extends CryoEvent> payloadType() {
        return payloadType;
    }

    /** The topic this type is published on. */
    public String topic() {
        return topic;
    }

    /** The JSON Schema of the payload, as a classpath resource. */
    public String schemaResource() {
        return "schemas/" + id + ".schema.json";
    }

    public static EventType of(CryoEvent event) {
        return ofPayload(event.getClass());
    }

    public static EventType ofPayload(Class<?> payloadType) {
        return Arrays.stream(values()).filter(type -> type.payloadType == payloadType).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Cannot find event type of " + payloadType.getName()));
    }

    public static Optional<EventType> fromId(String id) {
        return Arrays.stream(values()).filter(type -> type.id.equals(id)).findFirst();
    }
}
