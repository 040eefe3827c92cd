package dev.cryo.planner.domain;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.json.EventJson;

/**
 * A plan travels as one Kafka record, and the producer checks its size before compression
 * ({@code max.request.size} = {@link Topics#MAX_RECORD_BYTES}). A plan that would not fit is
 * refused here, with the setting that makes it smaller, instead of failing at the broker.
 */
public final class PlanLimits {

    /** Room left for the CloudEvents headers, the key and the record batch overhead. */
    static final int ENVELOPE_RESERVE_BYTES = 64 * 1024;

    /** The serialized plan's size in bytes. */
    public static int requireFitsOneRecord(MaintenancePlanned plan) {
        int bytes = EventJson.write(plan).length;
        if (bytes > Topics.MAX_RECORD_BYTES - ENVELOPE_RESERVE_BYTES) {
            throw new IllegalArgumentException("Cannot publish the plan of " + plan.table() + ": it is " + bytes
                    + " bytes of JSON, more than one record takes (" + (Topics.MAX_RECORD_BYTES - ENVELOPE_RESERVE_BYTES)
                    + "); lower cryo.planner.max-partitions-per-operation for this table");
        }
        return bytes;
    }

    private PlanLimits() {
    }
}
