package dev.cryo.governor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.event.DeferReason;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The governor's meters: admissions per engine, deferrals per reason, the queue's depth, slot
 * use per engine and the Trino load the last decision saw. Gauges show what the last pass of
 * this instance read from the shared database.
 */
@ApplicationScoped
public class GovernorMetrics {

    private final MeterRegistry registry;
    private final AtomicLong queueDepth = new AtomicLong();
    private final AtomicLong trinoForeignQueries = new AtomicLong(-1);
    private final Map<Engine, AtomicLong> slotsInUse = new EnumMap<>(Engine.class);
    private final Map<Engine, AtomicLong> slots = new EnumMap<>(Engine.class);

    GovernorMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("cryo.governor.queue.depth", queueDepth, AtomicLong::get)
                .description("plans waiting for admission").register(registry);
        Gauge.builder("cryo.governor.trino.foreign.queries", trinoForeignQueries, AtomicLong::get)
                .description("running and queued Trino queries that are not Cryo's, as the last decision saw them "
                        + "(-1: not read yet or unreadable)").register(registry);
        for (Engine engine : Engine.values()) {
            slotsInUse.put(engine, new AtomicLong());
            slots.put(engine, new AtomicLong());
            Gauge.builder("cryo.governor.slots.in.use", slotsInUse.get(engine), AtomicLong::get)
                    .tag("engine", engine.id()).description("engine slots held by unfinished jobs").register(registry);
            Gauge.builder("cryo.governor.slots", slots.get(engine), AtomicLong::get)
                    .tag("engine", engine.id()).description("maintenance slots of the engine").register(registry);
        }
    }

    public void admitted(Engine engine) {
        registry.counter("cryo.governor.admitted", "engine", engine.id()).increment();
    }

    public void deferred(DeferReason reason) {
        registry.counter("cryo.governor.deferred", "reason", reason.id()).increment();
    }

    /** An executor refused a stale admission. */
    public void refused(String reason) {
        registry.counter("cryo.governor.admissions.refused", "reason", reason).increment();
    }

    public void leaseExpired(String outcome) {
        registry.counter("cryo.governor.lease.expired", "outcome", outcome).increment();
    }

    public void queueDepth(long depth) {
        queueDepth.set(depth);
    }

    public void slots(Engine engine, int configured, int inUse) {
        slots.get(engine).set(configured);
        slotsInUse.get(engine).set(inUse);
    }

    public void trinoForeignQueries(int queries) {
        trinoForeignQueries.set(queries);
    }
}
