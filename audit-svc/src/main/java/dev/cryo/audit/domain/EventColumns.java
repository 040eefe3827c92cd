package dev.cryo.audit.domain;

import java.util.List;

/**
 * The columns an audit row is searched by, taken from the event. Every one is optional: what an
 * event type does not carry stays empty.
 *
 * @param eventType the CloudEvents type
 * @param source the CloudEvents source
 * @param table the table id
 * @param operations the operations the event is about, in the fixed order
 * @param engine the engine
 * @param status where the work stands: changed, scanned, graded, planned, admitted, deferred, started,
 *               running, succeeded, failed, ... (see the README)
 * @param durationMillis how long the work took
 * @param actor who asked for the work (CloudEvents {@code actor} extension, else the payload's actor)
 * @param reason a reason code: the defer reason, the error code of a failure, the exception of a dead letter
 * @param detail one line for people
 * @param correlationId the TableChanged that started the chain
 * @param jobId the job
 * @param planId the plan
 */
public record EventColumns(String eventType, String source, String table, List<String> operations, String engine,
                           String status, Long durationMillis, String actor, String reason, String detail,
                           String correlationId, String jobId, String planId) {

    public EventColumns {
        operations = operations == null ? List.of() : List.copyOf(operations);
    }
}
