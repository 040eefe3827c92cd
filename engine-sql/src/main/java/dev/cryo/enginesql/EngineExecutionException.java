package dev.cryo.enginesql;

import dev.cryo.contracts.Engine;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** A statement did not complete on its engine. */
public class EngineExecutionException extends RuntimeException {

    public enum Failure {
        /** The engine rejected or failed the statement. */
        FAILED,
        /** It ran longer than the query timeout and was stopped. */
        TIMED_OUT,
        /** The job was cancelled. */
        CANCELLED,
        /** The engine could not be reached: worth a retry later. */
        UNREACHABLE
    }

    private final Engine engine;
    private final Failure failure;
    private final String queryId;
    private final List<ExecutedStatement> completed;

    public EngineExecutionException(Engine engine, Failure failure, String queryId, List<ExecutedStatement> completed,
                                    String message, Throwable cause) {
        super(message, cause);
        this.engine = requireNonNull(engine, "engine is null");
        this.failure = requireNonNull(failure, "failure is null");
        this.queryId = queryId;
        this.completed = List.copyOf(completed);
    }

    public Engine engine() {
        return engine;
    }

    public Failure failure() {
        return failure;
    }

    /** The failed statement's query id, or null when the engine never assigned one. */
    public String queryId() {
        return queryId;
    }

    /** The statements of the same call that completed before this one failed. */
    public List<ExecutedStatement> completed() {
        return completed;
    }
}
