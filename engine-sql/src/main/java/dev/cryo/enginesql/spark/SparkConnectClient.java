package dev.cryo.enginesql.spark;

import dev.cryo.contracts.Engine;
import dev.cryo.enginesql.EngineClient;
import dev.cryo.enginesql.EngineExecutionException;
import dev.cryo.enginesql.ExecutedStatement;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.connect.SparkSession;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * Runs statements on a long-running Spark Connect server: one long-lived session for every job
 * (each session opens its own Iceberg catalog and never closes it, so no session per statement,
 * and no Spark application per operation). Each statement runs on a worker thread under two
 * operation tags, its own and its job's: the client waits at most the query timeout and then
 * interrupts the statement's tag; {@link #cancel} interrupts the job's tag. Spark Connect gives
 * the JVM client no operation id, so the query id reported is {@code <session id>/<statement tag>}.
 *
 * <p>After a server restart every call on the old session fails with
 * {@code INVALID_HANDLE.SESSION_CHANGED} before anything runs; the client then opens a new session
 * and runs the statement once more.
 */
public final class SparkConnectClient implements EngineClient {

    /**
     * @param remote {@code sc://host:port}, without parameters
     * @param user the Spark Connect user id Cryo runs as (also its user agent)
     * @param queryTimeout the longest one statement may run
     */
    public record Settings(String remote, String user, Duration queryTimeout) {
        public Settings {
            requireNonNull(remote, "remote is null");
            if (!remote.startsWith("sc://") || remote.contains(";")) {
                throw new IllegalArgumentException("Cannot use Spark Connect address '" + remote
                        + "': it must be sc://host:port, without parameters");
            }
            requireNonNull(user, "user is null");
            if (!user.matches("[A-Za-z0-9_-]+")) {
                throw new IllegalArgumentException("Cannot use Spark Connect user '" + user + "': letters, digits, '_' and '-' only");
            }
            requireNonNull(queryTimeout, "queryTimeout is null");
            if (queryTimeout.isZero() || queryTimeout.isNegative()) {
                throw new IllegalArgumentException("Cannot use a Spark query timeout of " + queryTimeout + ": it must be positive");
            }
        }
    }

    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final System.Logger LOG = System.getLogger(SparkConnectClient.class.getName());

    private final Settings settings;
    private final ExecutorService workers = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "cryo-spark-connect-" + THREADS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });
    private final Set<String> cancelled = ConcurrentHashMap.newKeySet();
    private SparkSession session;

    public SparkConnectClient(Settings settings) {
        this.settings = requireNonNull(settings, "settings is null");
    }

    @Override
    public Engine engine() {
        return Engine.SPARK;
    }

    @Override
    public List<ExecutedStatement> execute(String jobTag, List<String> statements) {
        requireNonNull(jobTag, "jobTag is null");
        List<ExecutedStatement> completed = new ArrayList<>();
        try {
            for (String sql : statements) {
                completed.add(run(jobTag, sql, completed));
            }
            return List.copyOf(completed);
        } finally {
            cancelled.remove(jobTag);
        }
    }

    private ExecutedStatement run(String jobTag, String sql, List<ExecutedStatement> completed) {
        String statementTag = "cryo-" + UUID.randomUUID();
        SparkSession current = session();
        String queryId = current.sessionId() + "/" + statementTag;
        long started = System.nanoTime();
        try {
            List<List<String>> rows;
            try {
                rows = await(jobTag, statementTag, current, sql);
            } catch (ExecutionException e) {
                if (!isSessionChanged(e.getCause())) {
                    throw e;
                }
                // The server restarted: nothing ran on the old session. Open a new one, run once more.
                current = renewSession(current);
                queryId = current.sessionId() + "/" + statementTag;
                rows = await(jobTag, statementTag, current, sql);
            }
            return new ExecutedStatement(sql, queryId, rows, Duration.ofNanos(System.nanoTime() - started));
        } catch (TimeoutException e) {
            current.interruptTag(statementTag);
            throw failure(EngineExecutionException.Failure.TIMED_OUT, queryId, completed,
                    "it ran longer than " + settings.queryTimeout(), e);
        } catch (ExecutionException e) {
            EngineExecutionException.Failure failure = cancelled.contains(jobTag) ? EngineExecutionException.Failure.CANCELLED
                    : isUnavailable(e.getCause()) ? EngineExecutionException.Failure.UNREACHABLE
                    : EngineExecutionException.Failure.FAILED;
            throw failure(failure, queryId, completed, String.valueOf(e.getCause().getMessage()), e.getCause());
        } catch (InterruptedException e) {
            current.interruptTag(statementTag);
            Thread.currentThread().interrupt();
            throw failure(EngineExecutionException.Failure.CANCELLED, queryId, completed, "the calling thread was interrupted", e);
        }
    }

    private List<List<String>> await(String jobTag, String statementTag, SparkSession current, String sql)
            throws ExecutionException, TimeoutException, InterruptedException {
        if (cancelled.contains(jobTag)) {
            throw new ExecutionException(new IllegalStateException("job " + jobTag + " was cancelled before the statement started"));
        }
        Future<List<List<String>>> result = workers.submit(() -> {
            // Tags belong to the calling thread: set them here, and clear them for the pool's next task.
            current.addTag(jobTag(jobTag));
            current.addTag(statementTag);
            try {
                List<List<String>> rows = new ArrayList<>();
                for (Row row : current.sql(sql).collectAsList()) {
                    List<String> values = new ArrayList<>(row.size());
                    for (int i = 0; i < row.size(); i++) {
                        values.add(row.isNullAt(i) ? null : String.valueOf(row.get(i)));
                    }
                    rows.add(values);
                }
                return rows;
            } finally {
                current.clearTags();
            }
        });
        try {
            return result.get(settings.queryTimeout().toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | InterruptedException e) {
            result.cancel(true);
            throw e;
        }
    }

    @Override
    public void cancel(String jobTag) {
        requireNonNull(jobTag, "jobTag is null");
        cancelled.add(jobTag);
        SparkSession current;
        synchronized (this) {
            current = session;
        }
        if (current != null) {
            current.interruptTag(jobTag(jobTag));
        }
    }

    /** Spark tags may not contain commas; a job tag becomes one safe tag. */
    private static String jobTag(String jobTag) {
        return "cryo-job-" + jobTag.replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    private synchronized SparkSession session() {
        if (session == null) {
            session = SparkSession.builder().remote(remoteUrl()).create();
        }
        return session;
    }

    private synchronized SparkSession renewSession(SparkSession stale) {
        if (session == stale) {
            try {
                stale.close();
            } catch (RuntimeException e) {
                // The server no longer knows this session, so closing it may fail; the new session does not depend on it.
                LOG.log(System.Logger.Level.WARNING, "Cannot close the stale Spark Connect session " + stale.sessionId()
                        + ": " + e.getMessage());
            }
            session = SparkSession.builder().remote(remoteUrl()).create();
            LOG.log(System.Logger.Level.INFO, "Spark Connect session " + stale.sessionId() + " was lost (server restart); "
                    + "continuing on new session " + session.sessionId());
        }
        return session;
    }

    private String remoteUrl() {
        String base = settings.remote().endsWith("/") ? settings.remote() : settings.remote() + "/";
        return base + ";user_id=" + settings.user() + ";user_agent=" + settings.user();
    }

    private static boolean isSessionChanged(Throwable error) {
        return error != null && String.valueOf(error.getMessage()).contains("INVALID_HANDLE.SESSION_CHANGED");
    }

    private static boolean isUnavailable(Throwable error) {
        return error != null && String.valueOf(error.getMessage()).toUpperCase(Locale.ROOT).contains("UNAVAILABLE");
    }

    private EngineExecutionException failure(EngineExecutionException.Failure failure, String queryId,
                                             List<ExecutedStatement> completed, String reason, Throwable cause) {
        return new EngineExecutionException(Engine.SPARK, failure, queryId, completed, "Cannot run statement on Spark ("
                + failure.name().toLowerCase(Locale.ROOT).replace('_', ' ') + ", query " + queryId + "): " + reason, cause);
    }

    @Override
    public synchronized void close() {
        workers.shutdownNow();
        if (session != null) {
            session.close();
            session = null;
        }
    }
}
