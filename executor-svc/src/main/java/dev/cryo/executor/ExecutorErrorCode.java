package dev.cryo.executor;

import dev.cryo.platform.error.ErrorCode;
import dev.cryo.platform.error.ErrorType;

/** Why an executor could not run a job or one of its steps. */
public enum ExecutorErrorCode implements ErrorCode {
    /** The table id names a catalog this executor does not have ({@code cryo.catalogs.<name>.*}). */
    CATALOG_NOT_FOUND(ErrorType.USER, 404),
    /** The catalog has no such table (dropped since it was planned). */
    TABLE_NOT_FOUND(ErrorType.USER, 404),
    /** A partition predicate of the plan does not fit the table's partition specs. */
    INVALID_PREDICATE(ErrorType.USER, 400),
    /** A file the native engine cannot rewrite (only Parquet data files are rewritten). */
    UNSUPPORTED_FILE_FORMAT(ErrorType.USER, 400),
    /** The job names an engine this executor does not run. */
    ENGINE_UNAVAILABLE(ErrorType.USER, 400),
    /** An operation refused by the table's own settings, e.g. {@code gc.enabled=false}. */
    REFUSED_BY_TABLE_SETTINGS(ErrorType.USER, 409),
    /** A parameter outside its safe range, e.g. an orphan age floor below 24 hours. */
    UNSAFE_PARAMETER(ErrorType.USER, 400),
    /**
     * A listed file has the path of a referenced file under a scheme or authority not declared
     * equivalent ({@code cryo.orphans.equivalent-*}): orphan removal stopped before deleting anything.
     */
    LOCATION_MISMATCH(ErrorType.USER, 409),
    /**
     * Orphan removal would delete more than {@code cryo.executor.orphans.max-share} of the listed
     * files or bytes; it stopped before deleting anything until an operator releases the brake.
     */
    ORPHAN_SHARE_BRAKE(ErrorType.USER, 409),
    /**
     * Rows read and rows written differ. On the native engine nothing was committed; after an
     * engine's commit (which Cryo cannot undo) the message names the engine, query and snapshots.
     */
    FINGERPRINT_MISMATCH(ErrorType.INTERNAL, 500),
    /** Concurrent writers kept conflicting with the rewrite after every retry. */
    COMMIT_CONFLICT(ErrorType.EXTERNAL, 409),
    /** The catalog did not say whether a commit happened; the next attempt checks the table history. */
    COMMIT_STATE_UNKNOWN(ErrorType.EXTERNAL, 503),
    /** Storage or catalog failed while reading or writing. */
    STORAGE_FAILURE(ErrorType.EXTERNAL, 503),
    /** Another executor runs this job and still heartbeats. */
    JOB_HELD_ELSEWHERE(ErrorType.EXTERNAL, 409),
    /** A bug: an engine step failed unexpectedly. */
    ENGINE_FAILURE(ErrorType.INTERNAL, 500),
    /** No job with that id. */
    JOB_NOT_FOUND(ErrorType.USER, 404),
    /** No engine of the table's policy (the job's engine, then cryo.executor.fallback-engines) can run the step. */
    NOT_ROUTABLE(ErrorType.USER, 400),
    /** The plan holds something no SQL statement can carry safely (a value that is not of its column's type, …). */
    CANNOT_RENDER(ErrorType.USER, 400),
    /** Trino or Spark rejected or failed the statement; the message has the engine's reason and query id. */
    ENGINE_QUERY_FAILED(ErrorType.EXTERNAL, 502),
    /** The statement ran longer than the engine's query timeout and was stopped. */
    ENGINE_TIMEOUT(ErrorType.EXTERNAL, 504),
    /** An operator paused the table after the job was admitted: the job was not started, or stopped before its next step. */
    TABLE_PAUSED(ErrorType.USER, 409),
    /** The statement was cancelled: the job was taken over, or the executor stopped. */
    ENGINE_CANCELLED(ErrorType.EXTERNAL, 409),
    /** Trino or Spark Connect could not be reached. */
    ENGINE_UNREACHABLE(ErrorType.EXTERNAL, 503);

    private final ErrorType type;
    private final int httpStatus;

    ExecutorErrorCode(ErrorType type, int httpStatus) {
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
