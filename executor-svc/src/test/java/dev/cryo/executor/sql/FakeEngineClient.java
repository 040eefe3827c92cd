package dev.cryo.executor.sql;

import dev.cryo.contracts.Engine;
import dev.cryo.enginesql.EngineClient;
import dev.cryo.enginesql.EngineExecutionException;
import dev.cryo.enginesql.ExecutedStatement;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hand-written stand-in for Trino's client: each statement gets a query id {@code q-<n>} and is
 * handed to a behaviour that the test sets (commit a rewrite with the Iceberg API, fail, block
 * until cancelled). Cancellations are recorded by tag.
 */
final class FakeEngineClient implements EngineClient {

    /** What "running" one statement does. */
    interface Behaviour {
        void run(String sql, String queryId, String tag) throws Exception;
    }

    private final Engine engine;
    private final AtomicInteger queries = new AtomicInteger();
    final List<String> statements = new CopyOnWriteArrayList<>();
    final Set<String> running = ConcurrentHashMap.newKeySet();
    final Set<String> cancelled = ConcurrentHashMap.newKeySet();
    volatile Behaviour behaviour = (sql, queryId, tag) -> {
    };

    FakeEngineClient(Engine engine) {
        this.engine = engine;
    }

    @Override
    public Engine engine() {
        return engine;
    }

    @Override
    public List<ExecutedStatement> execute(String jobTag, List<String> statements) {
        List<ExecutedStatement> done = new ArrayList<>();
        running.add(jobTag);
        try {
            for (String sql : statements) {
                String queryId = "q-" + queries.incrementAndGet();
                this.statements.add(sql);
                try {
                    behaviour.run(sql, queryId, jobTag);
                } catch (EngineExecutionException e) {
                    throw new EngineExecutionException(engine, e.failure(), queryId, done, e.getMessage(), e.getCause());
                } catch (Exception e) {
                    throw new IllegalStateException("Cannot run the fake statement: " + e.getMessage(), e);
                }
                done.add(new ExecutedStatement(sql, queryId, List.of(), Duration.ZERO));
            }
            return List.copyOf(done);
        } finally {
            running.remove(jobTag);
        }
    }

    @Override
    public void cancel(String jobTag) {
        cancelled.add(jobTag);
    }

    @Override
    public void close() {
    }
}
