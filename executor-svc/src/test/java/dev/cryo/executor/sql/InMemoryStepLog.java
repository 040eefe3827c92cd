package dev.cryo.executor.sql;

import dev.cryo.contracts.Engine;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.EngineStepLog;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The engine-step log in memory, for tests of one engine without the database. */
final class InMemoryStepLog implements EngineStepLog {

    private final Map<String, Map<StepKey, StartedStep>> jobs = new LinkedHashMap<>();

    @Override
    public synchronized void started(String jobId, StepKey step, Engine engine, Long startSnapshotId) {
        Map<StepKey, StartedStep> steps = jobs.computeIfAbsent(jobId, id -> new LinkedHashMap<>());
        steps.remove(step);
        steps.put(step, new StartedStep(step, engine, startSnapshotId, Instant.now()));
    }

    @Override
    public synchronized List<StartedStep> started(String jobId) {
        return new ArrayList<>(jobs.getOrDefault(jobId, Map.of()).values());
    }
}
