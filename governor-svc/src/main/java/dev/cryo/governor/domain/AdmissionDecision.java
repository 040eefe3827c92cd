package dev.cryo.governor.domain;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.event.DeferReason;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** What the governor does with a plan now: run it on an engine slot, or let it wait and say why. */
public sealed interface AdmissionDecision {

    /** The engine the plan would run on. */
    Engine engine();

    /**
     * The plan runs now.
     *
     * @param engine the engine
     * @param slot the engine slot it occupies (0-based, the lowest free one)
     */
    record Admit(Engine engine, int slot) implements AdmissionDecision {
        public Admit {
            requireNonNull(engine, "engine is null");
            if (slot < 0) {
                throw new IllegalArgumentException("slot is negative: " + slot);
            }
        }
    }

    /**
     * The plan waits.
     *
     * @param reason the reason code
     * @param message what an operator reads
     * @param retryAfter the earliest time another try can succeed; empty when only an event (a resume) can help
     * @param engine the engine the plan would run on
     */
    record Defer(DeferReason reason, String message, Optional<Instant> retryAfter, Engine engine)
            implements AdmissionDecision {
        public Defer {
            requireNonNull(reason, "reason is null");
            requireNonNull(message, "message is null");
            if (message.isBlank()) {
                throw new IllegalArgumentException("message is blank");
            }
            requireNonNull(retryAfter, "retryAfter is null");
            requireNonNull(engine, "engine is null");
        }
    }
}
