package dev.cryo.platform.deadletter;

import static java.util.Objects.requireNonNull;

/**
 * What happened to one dead letter an operator asked to re-drive.
 *
 * @param id the dead letter, {@code <partition>-<offset>}
 * @param outcome {@code redriven}, {@code already-redriven} or {@code refused}
 * @param target where it went, {@code <topic>/<partition>/<offset>} (null unless redriven)
 * @param message why it was not re-driven, or what was done
 */
public record Redrive(String id, String outcome, String target, String message) {

    public static final String REDRIVEN = "redriven";
    public static final String ALREADY_REDRIVEN = "already-redriven";
    public static final String REFUSED = "refused";

    public Redrive {
        requireNonNull(id, "id is null");
        requireNonNull(outcome, "outcome is null");
        requireNonNull(message, "message is null");
    }
}
