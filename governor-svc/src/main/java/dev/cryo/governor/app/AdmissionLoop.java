package dev.cryo.governor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.governor.messaging.OutboxRelay;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs decision passes on one thread of this instance: on a new plan, on a freed slot or lock,
 * on an operator's change and on a timer (which also catches retry-after times as they pass and
 * leases as they end). Requests that come while a pass runs are folded into one more pass, so a
 * burst of events costs a few passes, not one each. Other instances run their own passes;
 * row locks keep their decisions apart.
 */
@ApplicationScoped
public class AdmissionLoop {

    private final AdmissionService admissions;
    private final JobEvents jobEvents;
    private final OutboxRelay relay;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "governor-admission");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicBoolean requested = new AtomicBoolean();
    private final AtomicBoolean started = new AtomicBoolean();

    AdmissionLoop(AdmissionService admissions, JobEvents jobEvents, OutboxRelay relay) {
        this.admissions = admissions;
        this.jobEvents = jobEvents;
        this.relay = relay;
    }

    void onStart(@Observes StartupEvent event) {
        admissions.seedEngines();
        started.set(true);
        request();
    }

    void onStop(@Observes ShutdownEvent event) {
        started.set(false);
        worker.shutdown();
        try {
            if (!worker.awaitTermination(10, TimeUnit.SECONDS)) {
                worker.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            worker.shutdownNow();
        }
    }

    /** Asks for a pass soon; returns at once. */
    public void request() {
        if (started.get() && requested.compareAndSet(false, true)) {
            worker.execute(this::pass);
        }
    }

    /** A slot of the engine freed: the plans that wait for it are due now. */
    public void slotFreed(Engine engine) {
        jobEvents.wake(engine);
        request();
    }

    @Scheduled(every = "${cryo.governor.reevaluation-interval}", delayed = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void tick() {
        if (!started.get()) {
            return;
        }
        try {
            jobEvents.expireLeases();
        } catch (RuntimeException e) {
            Log.errorf(e, "Cannot expire leases now; trying again at the next tick");
        }
        request();
    }

    private void pass() {
        requested.set(false);
        try {
            admissions.decideDue();
            relay.publishPending();
            admissions.measure();
        } catch (RuntimeException e) {
            // The next request or tick tries again; what was committed is in the database and the outbox.
            Log.errorf(e, "A decision pass failed; the next pass retries it");
        }
    }
}
