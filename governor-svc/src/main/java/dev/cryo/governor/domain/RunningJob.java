package dev.cryo.governor.domain;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;

import static java.util.Objects.requireNonNull;

/**
 * A job admitted and not finished: it occupies one slot of its engine.
 *
 * @param jobId the job
 * @param table its table
 * @param engine its engine
 * @param slot the slot it occupies
 */
public record RunningJob(String jobId, TableId table, Engine engine, int slot) {
    public RunningJob {
        requireNonNull(jobId, "jobId is null");
        requireNonNull(table, "table is null");
        requireNonNull(engine, "engine is null");
    }
}
