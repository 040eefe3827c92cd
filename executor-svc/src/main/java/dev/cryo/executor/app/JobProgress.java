package dev.cryo.executor.app;

import dev.cryo.contracts.Operation;
import dev.cryo.executor.engine.MaintenanceEngine;
import io.quarkus.logging.Log;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** Where a running job stands: what its heartbeat reports, updated by the job's thread. */
final class JobProgress {

    final int chunksTotal;
    final AtomicInteger chunksDone = new AtomicInteger();
    final AtomicInteger beats = new AtomicInteger();
    /** Set when another executor took the job over: the job's thread stops before its next step. */
    final AtomicBoolean lost = new AtomicBoolean();
    volatile Operation operation;
    /** The engine running the job's current step, if any: what a cancellation goes to. */
    volatile MaintenanceEngine engine;

    JobProgress(int chunksTotal) {
        this.chunksTotal = chunksTotal;
    }

    /** Cancels the statement the job's current step runs on its engine, if any. */
    void cancelRunningStatement(String jobId) {
        MaintenanceEngine current = engine;
        if (current != null) {
            try {
                current.cancel(jobId);
            } catch (RuntimeException e) {
                Log.warnf(e, "Job %s: cannot cancel its statement on %s", jobId, current.engine().id());
            }
        }
    }
}
