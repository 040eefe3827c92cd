package dev.cryo.contracts.event;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Severity;

import static java.util.Objects.requireNonNull;

/**
 * Points a check took off the score, and the operation that wins them back.
 *
 * @param check the check
 * @param severity warning or critical
 * @param points points deducted
 * @param measured the measured value (a share 0..1, a count, a ratio, or seconds for ages)
 * @param limit the limit it crossed, after size scaling
 * @param unit unit of {@code measured} and {@code limit}: {@code share}, {@code count}, {@code ratio}, {@code seconds}, {@code bytes}
 * @param fix the operation that fixes it
 * @param explanation one line for humans, e.g. "62.3 % of data files are under 128 MiB (limit 50 %)"
 */
public record Deduction(Check check, Severity severity, int points, double measured, double limit, String unit,
                        Operation fix, String explanation) {
    public Deduction {
        requireNonNull(check, "check is null");
        requireNonNull(severity, "severity is null");
        Require.nonNegative(points, "points");
        Require.nonBlank(unit, "unit");
        requireNonNull(fix, "fix is null");
        Require.nonBlank(explanation, "explanation");
    }
}
