package dev.cryo.enginesql;

import dev.cryo.contracts.Engine;

import java.util.List;

/**
 * Runs rendered statements on a long-running engine, as Cryo's dedicated user, with a timeout
 * per statement and cancellation by job.
 */
public interface EngineClient extends AutoCloseable {

    Engine engine();

    /**
     * Runs the statements in order on one connection or session and returns each with its query
     * id. Blocks until the last one finishes.
     *
     * @param jobTag identifies the job: {@link #cancel(String)} with the same tag stops it
     * @throws EngineExecutionException when a statement fails, times out or is cancelled
     */
    List<ExecutedStatement> execute(String jobTag, List<String> statements);

    /** Cancels the running statement of that job, if any; its {@link #execute} then fails as CANCELLED. */
    void cancel(String jobTag);

    @Override
    void close();
}
