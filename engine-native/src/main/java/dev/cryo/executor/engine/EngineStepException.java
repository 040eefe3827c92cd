package dev.cryo.executor.engine;

import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.error.ErrorCode;

/**
 * A step that failed on Trino or Spark: the failure carries the engine's query ids, so the
 * failed result event still points at the query in the engine's own history.
 */
public final class EngineStepException extends CryoException {

    private final String queryId;

    public EngineStepException(ErrorCode code, String message, String queryId, Throwable cause) {
        super(code, message, cause);
        this.queryId = queryId;
    }

    /** Comma-separated query ids of the statements the step ran, or null when the engine assigned none. */
    public String queryId() {
        return queryId;
    }
}
