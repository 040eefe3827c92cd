package dev.cryo.scorer.rest;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Operation;

import java.util.List;

/**
 * The effective policy of a table, computed from the table properties of its last scan.
 *
 * @param table the table id
 * @param pattern the configured pattern whose overrides apply (null: none)
 * @param scanId the scan whose properties were used
 * @param dataBytes the table's data bytes in that scan
 * @param sizeScale the factor its count limits are multiplied by
 * @param checks every check's policy, in the order of SCORING.md
 * @param problems table properties that were ignored, and why
 */
public record PolicyView(String table, String pattern, String scanId, long dataBytes, double sizeScale,
                         List<CheckView> checks, List<String> problems) {

    /**
     * One check's policy.
     *
     * @param check the check
     * @param fix the operation that wins its points back
     * @param unit unit of warning and critical values
     * @param enabled whether it runs, and why
     * @param warning the warning limit
     * @param critical the critical limit
     * @param warningBytes orphan-files: the absolute warning limit (null for other checks)
     * @param criticalBytes orphan-files: the absolute critical limit (null for other checks)
     * @param effectiveUnit unit of the effective limits (bytes for orphan-files)
     * @param effectiveWarning the warning limit this table's measurement is compared with, after size scaling
     * @param effectiveCritical the critical limit this table's measurement is compared with, after size scaling
     */
    public record CheckView(Check check, Operation fix, String unit, Value<Boolean> enabled, Value<Double> warning,
                            Value<Double> critical, Value<Double> warningBytes, Value<Double> criticalBytes,
                            String effectiveUnit, Double effectiveWarning, Double effectiveCritical) {
    }

    /**
     * A value and where it came from.
     *
     * @param value the value (null: no such limit)
     * @param text the value for humans ({@code 20 %}, {@code 7 days}, {@code none})
     * @param source {@code default}, {@code global}, {@code pattern:<glob>} or {@code table-property:<key>}
     * @param key the configuration key or table property that set it (null for defaults)
     */
    public record Value<T>(T value, String text, String source, String key) {
    }

    public PolicyView {
        checks = List.copyOf(checks);
        problems = List.copyOf(problems);
    }
}
