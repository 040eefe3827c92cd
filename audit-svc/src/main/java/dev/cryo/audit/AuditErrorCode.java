package dev.cryo.audit;

import dev.cryo.platform.error.ErrorCode;
import dev.cryo.platform.error.ErrorKind;

/** The audit service's error codes. */
public enum AuditErrorCode implements ErrorCode {
    /** A query parameter does not parse or contradicts another. */
    INVALID_FILTER(ErrorKind.BAD_REQUEST),
    /** A page cursor that this service did not hand out. */
    INVALID_CURSOR(ErrorKind.BAD_REQUEST),
    /** No stored event has that id. */
    EVENT_NOT_FOUND(ErrorKind.NOT_FOUND),
    /** No stored event belongs to that correlation id. */
    TIMELINE_NOT_FOUND(ErrorKind.NOT_FOUND),
    /** No replay has that id. */
    REPLAY_NOT_FOUND(ErrorKind.NOT_FOUND),
    /** A replay request that cannot run as asked (bad schema name, bad time range). */
    INVALID_REPLAY(ErrorKind.BAD_REQUEST),
    /** A rebuild target that already holds audit rows. */
    REBUILD_TARGET_NOT_EMPTY(ErrorKind.CONFLICT),
    /** PostgreSQL did not answer or refused for a reason that may pass (connection, lock, shutdown). */
    STORE_UNAVAILABLE(ErrorKind.UNAVAILABLE),
    /** PostgreSQL refused the data of a row (a data exception or an integrity rule); retrying the same row does not help. */
    ROW_REFUSED(ErrorKind.INTERNAL),
    /** PostgreSQL failed otherwise (a missing grant, a bug in a statement). */
    STORE_FAILED(ErrorKind.INTERNAL),
    /** Kafka did not answer. */
    KAFKA_UNAVAILABLE(ErrorKind.UNAVAILABLE);

    private final ErrorKind kind;

    AuditErrorCode(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
