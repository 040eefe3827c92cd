package dev.cryo.contracts.event;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A plan waits, and says why.
 *
 * @param planId the plan
 * @param table the table
 * @param reason the reason code
 * @param message what an operator reads, e.g. "engine trino runs 14 queries (limit 10)"
 * @param retryAfter the earliest time the governor will try again (optional: only on an event, e.g. a freed slot)
 * @param deferredAt when
 * @param engine the engine the plan would run on (optional)
 */
public record JobDeferred(
        String planId,
        TableId table,
        DeferReason reason,
        String message,
        Instant retryAfter,
        Instant deferredAt,
        Engine engine) implements CryoEvent {

    public JobDeferred {
        Require.nonBlank(planId, "planId");
        requireNonNull(table, "table is null");
        requireNonNull(reason, "reason is null");
        Require.nonBlank(message, "message");
        requireNonNull(deferredAt, "deferredAt is null");
    }
}
