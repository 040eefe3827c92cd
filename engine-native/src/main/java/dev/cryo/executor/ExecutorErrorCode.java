package dev.cryo.executor;

import dev.cryo.platform.error.ErrorCode;
import dev.cryo.platform.error.ErrorKind;

/** Why an executor could not run a job or one of its steps. */
public enum ExecutorErrorCode implements ErrorCode {
    /** The table id names a catalog this executor does not have ({@code cryo.catalogs.<name>.*}). */
    CATALOG_NOT_FOUND(ErrorKind.NOT_FOUND),
    /** The catalog has no such table (dropped since it was planned). */
    TABLE_NOT_FOUND(ErrorKind.NOT_FOUND),
    /** A partition predicate of the plan does not fit the table's partition specs. */
    INVALID_PREDICATE(ErrorKind.BAD_REQUEST),
    /** A file the native engine cannot rewrite (only Parquet data files are rewritten). */
    UNSUPPORTED_FILE_FORMAT(ErrorKind.BAD_REQUEST),
    /** The job names an engine this executor does not run. */
    ENGINE_UNAVAILABLE(ErrorKind.BAD_REQUEST),
    /** An operation refused by the table's own settings, e.g. {@code gc.enabled=false}. */
    REFUSED_BY_TABLE_SETTINGS(ErrorKind.CONFLICT),
    /** A parameter outside its safe range, e.g. an orphan age floor below 24 hours. */
    UNSAFE_PARAMETER(ErrorKind.BAD_REQUEST),
    /**
     * A listed file has the path of a referenced file under a scheme or authority not declared
     * equivalent ({@code cryo.orphans.equivalent-*}), or a path is spelled two ways: orphan removal
     * stopped before deleting anything.
     */
    LOCATION_MISMATCH(ErrorKind.CONFLICT),
    /**
     * The table's location is a bucket or file system root or lies inside another table's folder,
     * or an engine would have to delete under it where other tables keep files: orphan removal
     * refused before deleting anything.
     */
    SHARED_LOCATION(ErrorKind.CONFLICT),
    /**
     * Orphan removal would delete more than {@code cryo.executor.orphans.max-share} of the listed
     * files or bytes; it stopped before deleting anything until an operator releases the brake.
     */
    ORPHAN_SHARE_BRAKE(ErrorKind.CONFLICT),
    /**
     * Rows read and rows written differ. On the native engine nothing was committed; after an
     * engine's commit (which Cryo cannot undo) the message names the engine, query and snapshots.
     */
    FINGERPRINT_MISMATCH(ErrorKind.INTERNAL),
    /** Concurrent writers kept conflicting with the rewrite after every retry. */
    COMMIT_CONFLICT(ErrorKind.CONTENDED),
    /** The catalog did not say whether a commit happened; the next attempt checks the table history. */
    COMMIT_STATE_UNKNOWN(ErrorKind.UNAVAILABLE),
    /** Storage or catalog failed while reading or writing. */
    STORAGE_FAILURE(ErrorKind.UNAVAILABLE),
    /** Another executor runs this job and still heartbeats. */
    JOB_HELD_ELSEWHERE(ErrorKind.CONTENDED),
    /** A bug: an engine step failed unexpectedly. */
    ENGINE_FAILURE(ErrorKind.INTERNAL),
    /** No job with that id. */
    JOB_NOT_FOUND(ErrorKind.NOT_FOUND),
    /** No engine of the table's policy (the job's engine, then cryo.executor.fallback-engines) can run the step. */
    NOT_ROUTABLE(ErrorKind.BAD_REQUEST),
    /** The plan holds something no SQL statement can carry safely (a value that is not of its column's type, …). */
    CANNOT_RENDER(ErrorKind.BAD_REQUEST),
    /** Trino or Spark rejected or failed the statement; the message has the engine's reason and query id. */
    ENGINE_QUERY_FAILED(ErrorKind.BAD_GATEWAY),
    /** The statement ran longer than the engine's query timeout and was stopped. */
    ENGINE_TIMEOUT(ErrorKind.TIMEOUT),
    /** An operator paused the table after the job was admitted: the job was not started, or stopped before its next step. */
    TABLE_PAUSED(ErrorKind.CONFLICT),
    /** The statement was cancelled: the job was taken over, or the executor stopped. */
    ENGINE_CANCELLED(ErrorKind.CONTENDED),
    /** Trino or Spark Connect could not be reached. */
    ENGINE_UNREACHABLE(ErrorKind.UNAVAILABLE);

    private final ErrorKind kind;

    ExecutorErrorCode(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
