package dev.cryo.executor.iceberg;

import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.platform.error.CryoException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs the tasks of one rewrite (a partition's write, a new file's read-back) on a bounded pool of
 * daemon threads, and makes a failure of one task the failure of all: the others are asked to stop
 * (they poll {@link #stopIfAsked}), every task is waited for so that each can clean up after
 * itself, and the first real failure is reported. Memory is not this class's concern: each task
 * reserves its own share from {@link WriteMemory}.
 */
final class ParallelTasks {

    /** Thrown by a task that stops because another one failed; never the error reported. */
    static final class Stopped extends RuntimeException {
        Stopped() {
            super("stopped: another task of the rewrite failed", null, false, false);
        }
    }

    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private final String tableName;
    private final int maxThreads;

    ParallelTasks(String tableName, int maxThreads) {
        this.tableName = tableName;
        this.maxThreads = Math.max(1, maxThreads);
    }

    /** Throws {@link Stopped} once another task of the same run has failed. */
    static void stopIfAsked(AtomicBoolean stop) {
        if (stop.get()) {
            throw new Stopped();
        }
    }

    /** How many threads a run of {@code tasks} tasks uses. */
    int threadsFor(int tasks) {
        return Math.max(1, Math.min(maxThreads, tasks));
    }

    /**
     * Runs {@code tasks} and returns their results in the tasks' order. When one fails, the others
     * are asked to stop through {@code stop}, every task is waited for, {@code undo} is applied to
     * the results of those that finished, and the first real failure is thrown.
     */
    <T> List<T> run(String what, List<Callable<T>> tasks, AtomicBoolean stop, Consumer<T> undo) {
        int threads = threadsFor(tasks.size());
        List<T> results = new ArrayList<>();
        if (threads <= 1) {
            try {
                for (Callable<T> task : tasks) {
                    results.add(task.call());
                }
                return results;
            } catch (Exception e) {
                results.forEach(undo);
                throw unchecked(what, e);
            }
        }
        int id = POOL_IDS.incrementAndGet();
        AtomicInteger threadIds = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "cryo-" + what.replace(' ', '-') + "-" + id + "-"
                    + threadIds.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<T>> futures = tasks.stream().map(pool::submit).toList();
            Throwable failure = null;
            boolean interrupted = false;
            for (Future<T> future : futures) {
                while (true) {
                    try {
                        results.add(future.get());
                        break;
                    } catch (ExecutionException e) {
                        stop.set(true);
                        if (failure == null || failure instanceof Stopped) {
                            failure = e.getCause();
                        }
                        break;
                    } catch (InterruptedException e) {
                        // the job is being stopped: let the tasks stop and clean up, then say so
                        interrupted = true;
                        stop.set(true);
                    }
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
                if (failure == null || failure instanceof Stopped) {
                    failure = new CryoException(ExecutorErrorCode.ENGINE_FAILURE, "Cannot " + what + " the files of "
                            + tableName + ": interrupted");
                }
            }
            if (failure != null) {
                results.forEach(undo);
                throw unchecked(what, failure);
            }
            return results;
        } finally {
            pool.shutdown();
        }
    }

    private RuntimeException unchecked(String what, Throwable failure) {
        if (failure instanceof Error error) {
            throw error;
        }
        if (failure instanceof RuntimeException runtime) {
            return runtime;
        }
        return new CryoException(ExecutorErrorCode.ENGINE_FAILURE, "Cannot " + what + " the files of " + tableName
                + ": " + failure, failure);
    }
}
