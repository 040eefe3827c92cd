package dev.cryo.contracts.event;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Severity;

import static java.util.Objects.requireNonNull;

/**
 * A finding that its operation cannot win back under the table's own settings: only a change of
 * policy can. It costs no points and is never planned; it is shown apart from the to-do list, with
 * the setting that holds it.
 *
 * @param check the check that found it
 * @param severity how far over its limit the measured value is
 * @param measured the measured value, in {@code unit}
 * @param limit the limit it crossed
 * @param unit the unit of measured and limit
 * @param operation the operation that would fix it if the setting allowed
 * @param heldBy the setting that holds it, with its value (e.g. {@code history.expire.max-snapshot-age-ms = 7 d})
 * @param explanation what holds it and how to change that, for people
 */
public record HeldFinding(Check check, Severity severity, double measured, double limit, String unit, Operation operation,
                          String heldBy, String explanation) {
    public HeldFinding {
        requireNonNull(check, "check is null");
        requireNonNull(severity, "severity is null");
        Require.nonBlank(unit, "unit");
        requireNonNull(operation, "operation is null");
        Require.nonBlank(heldBy, "heldBy");
        Require.nonBlank(explanation, "explanation");
    }
}
