package dev.cryo.contracts.event;

import dev.cryo.contracts.Check;

import static java.util.Objects.requireNonNull;

/**
 * The limits one check of a grading was judged by, before size scaling: the table's effective
 * policy as the scorer applied it. The planner grades the table its plan predicts by these same
 * limits, so that a plan's expected score and the grade after the job use one policy.
 *
 * @param check the check
 * @param enabled whether it ran
 * @param warning the warning limit (optional: the check has none)
 * @param critical the critical limit (optional)
 * @param warningBytes orphan-files only: the absolute warning limit in bytes (optional)
 * @param criticalBytes orphan-files only: the absolute critical limit in bytes (optional)
 */
public record CheckLimits(Check check, boolean enabled, Double warning, Double critical, Double warningBytes,
                          Double criticalBytes) {
    public CheckLimits {
        requireNonNull(check, "check is null");
    }
}
