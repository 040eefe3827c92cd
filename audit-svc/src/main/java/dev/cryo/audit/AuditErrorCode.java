package dev.cryo.audit;

import dev.cryo.platform.error.ErrorCode;
import dev.cryo.platform.error.ErrorType;

/** The audit service's error codes. */
public enum AuditErrorCode implements ErrorCode {
    /** A query parameter does not parse or contradicts another. */
    INVALID_FILTER(ErrorType.USER, 400),
    /** A page cursor that this service did not hand out. */
    INVALID_CURSOR(ErrorType.USER, 400),
    /** No stored event has that id. */
    EVENT_NOT_FOUND(ErrorType.USER, 404),
    /** No stored event belongs to that correlation id. */
    TIMELINE_NOT_FOUND(ErrorType.USER, 404),
    /** No replay has that id. */
    REPLAY_NOT_FOUND(ErrorType.USER, 404),
    /** A replay request that cannot run as asked (bad schema name, bad time range). */
    INVALID_REPLAY(ErrorType.USER, 400),
    /** A rebuild target that already holds audit rows. */
    REBUILD_TARGET_NOT_EMPTY(ErrorType.USER, 409),
    /** PostgreSQL did not answer or refused for a reason that may pass (connection, lock, shutdown). */
    STORE_UNAVAILABLE(ErrorType.EXTERNAL, 503),
    /** PostgreSQL refused the data of a row (a data exception or an integrity rule); retrying the same row does not help. */
    ROW_REFUSED(ErrorType.INTERNAL, 500),
    /** PostgreSQL failed otherwise (a missing grant, a bug in a statement). */
    STORE_FAILED(ErrorType.INTERNAL, 500),
    /** Kafka did not answer. */
    KAFKA_UNAVAILABLE(ErrorType.EXTERNAL, 503);

    private final ErrorType type;
    private final int httpStatus;

    AuditErrorCode(ErrorType type, int httpStatus) {
        this.type = type;
        this.httpStatus = httpStatus;
    }

    @Override
    public ErrorType type() {
        return type;
    }

    @Override
    public int httpStatus() {
        return httpStatus;
    }
}
