package dev.cryo.contracts.event;

import dev.cryo.contracts.Check;

import static java.util.Objects.requireNonNull;

/** A check that had no data to judge: neither a pass nor a failure. */
public record NotEvaluated(Check check, String reason) {
    public NotEvaluated {
        requireNonNull(check, "check is null");
        Require.nonBlank(reason, "reason");
    }
}
