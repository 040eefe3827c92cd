package dev.cryo.audit.domain;

import dev.cryo.contracts.cloudevents.EventType;

import java.util.Locale;

/**
 * The steps of one table change, in the order they happen: change → scan → grade → plan →
 * admit (or its withdrawal) or defer → job (or an executor's refusal) → result → score (the first grade after the job against the plan's expected score).
 */
public enum TimelineStage {
    CHANGE, SCAN, GRADE, PLAN, ADMIT, DEFER, JOB, RESULT, SCORE,
    /** A record of the chain that a consumer dead-lettered or that was not readable. */
    FAILED_DELIVERY;

    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The stage of an event type id ({@code ce_type}); records without a known type are failed deliveries. */
    public static TimelineStage of(RecordKind kind, String eventType) {
        if (kind != RecordKind.EVENT || eventType == null) {
            return FAILED_DELIVERY;
        }
        return EventType.fromId(eventType).map(TimelineStage::of).orElse(FAILED_DELIVERY);
    }

    static TimelineStage of(EventType type) {
        return switch (type) {
            case TABLE_CHANGED -> CHANGE;
            case TABLE_SCANNED -> SCAN;
            case TABLE_GRADED, GRADE_CHANGED -> GRADE;
            case MAINTENANCE_PLANNED -> PLAN;
            case JOB_ADMITTED, JOB_REVOKED -> ADMIT;
            case JOB_DEFERRED -> DEFER;
            case JOB_REFUSED, JOB_STARTED, JOB_HEARTBEAT, OPERATION_FINISHED -> JOB;
            case JOB_FINISHED -> RESULT;
            case JOB_SCORED -> SCORE;
        };
    }
}
