package dev.cryo.scoring;

import dev.cryo.contracts.Check;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A check's defaults from SCORING.md: the unit of its measurement and limits, whether its limits
 * grow with table size ({@code ·s}), and its default limits. {@code defaultCritical} is absent for
 * missing-statistics, which is a warning only unless an operator sets a critical size.
 *
 * @param check the check
 * @param unit unit of the measured value and of {@code warning} / {@code critical}
 * @param scaling whether the limits are multiplied by the size scale {@code s}
 * @param defaultWarning default warning limit
 * @param defaultCritical default critical limit (optional)
 * @param defaultWarningBytes orphan-files only: default absolute warning limit in bytes (optional)
 * @param defaultCriticalBytes orphan-files only: default absolute critical limit in bytes (optional)
 */
public record CheckSpec(Check check, LimitUnit unit, Scaling scaling, double defaultWarning, Double defaultCritical,
                        Double defaultWarningBytes, Double defaultCriticalBytes) {

    static final double GIB = 1024d * 1024 * 1024;
    static final double DAY_SECONDS = 86_400;

    private static final Map<Check, CheckSpec> SPECS = specs();

    /** Whether a check's limits grow with table size. */
    public enum Scaling {
        /** Shares, ratios, ages and sizes: the same limit for every table. */
        NONE,
        /** Counts: limits marked {@code ·s} in SCORING.md, multiplied by {@code s = max(1, sqrt(D / 100 GiB))}. */
        BY_TABLE_SIZE
    }

    public CheckSpec {
        requireNonNull(check, "check is null");
        requireNonNull(unit, "unit is null");
        requireNonNull(scaling, "scaling is null");
    }

    public static CheckSpec of(Check check) {
        return SPECS.get(requireNonNull(check, "check is null"));
    }

    /** The settings this check accepts: the byte limits exist for orphan-files only. */
    public List<Setting> settings() {
        return hasByteLimits()
                ? List.of(Setting.values())
                : List.of(Setting.ENABLED, Setting.WARNING, Setting.CRITICAL);
    }

    /** orphan-files: a limit is crossed at a share of table bytes or at an absolute size, whichever is less. */
    public boolean hasByteLimits() {
        return defaultWarningBytes != null;
    }

    /** The unit in which a setting is written. */
    public LimitUnit unitOf(Setting setting) {
        return setting == Setting.WARNING_BYTES || setting == Setting.CRITICAL_BYTES ? LimitUnit.BYTES : unit;
    }

    /** The default value of a numeric setting, or null when it has none. */
    public Double defaultValue(Setting setting) {
        return switch (setting) {
            case WARNING -> defaultWarning;
            case CRITICAL -> defaultCritical;
            case WARNING_BYTES -> defaultWarningBytes;
            case CRITICAL_BYTES -> defaultCriticalBytes;
            case ENABLED -> throw new IllegalArgumentException("enabled is not a numeric setting");
        };
    }

    private static Map<Check, CheckSpec> specs() {
        Map<Check, CheckSpec> specs = new EnumMap<>(Check.class);
        put(specs, Check.SMALL_FILES, LimitUnit.SHARE, Scaling.NONE, 0.20, 0.50);
        put(specs, Check.FILE_COUNT, LimitUnit.COUNT, Scaling.BY_TABLE_SIZE, 10_000, 50_000d);
        put(specs, Check.OVERSIZED_FILES, LimitUnit.SHARE, Scaling.NONE, 0.20, 0.50);
        put(specs, Check.PARTITION_SKEW, LimitUnit.RATIO, Scaling.NONE, 10, 50d);
        put(specs, Check.DELETE_RATIO, LimitUnit.RATIO, Scaling.NONE, 0.10, 0.25);
        put(specs, Check.EQUALITY_DELETES, LimitUnit.COUNT, Scaling.BY_TABLE_SIZE, 10, 100d);
        put(specs, Check.POSITION_DELETES, LimitUnit.COUNT, Scaling.BY_TABLE_SIZE, 100, 500d);
        put(specs, Check.SNAPSHOT_COUNT, LimitUnit.COUNT, Scaling.BY_TABLE_SIZE, 100, 500d);
        // snapshot-age warns a day above the default retention of 7 days: a table whose expiry runs holds
        // snapshots up to 7 days old, and a warning at the retention itself no expiry could win back.
        put(specs, Check.SNAPSHOT_AGE, LimitUnit.SECONDS, Scaling.NONE, 8 * DAY_SECONDS, 30 * DAY_SECONDS);
        put(specs, Check.MANIFEST_COUNT, LimitUnit.COUNT, Scaling.BY_TABLE_SIZE, 100, 500d);
        put(specs, Check.MANIFEST_CLUSTERING, LimitUnit.SHARE, Scaling.NONE, 0.50, 0.80);
        // missing-statistics measures the size of a table without statistics: from 1 GiB it is a warning.
        put(specs, Check.MISSING_STATISTICS, LimitUnit.BYTES, Scaling.NONE, GIB, null);
        put(specs, Check.STALE_STATISTICS, LimitUnit.RATIO, Scaling.NONE, 0.20, 0.50);
        specs.put(Check.ORPHAN_FILES, new CheckSpec(Check.ORPHAN_FILES, LimitUnit.SHARE, Scaling.NONE, 0.10, 0.25,
                GIB, 10 * GIB));
        return Map.copyOf(specs);
    }

    private static void put(Map<Check, CheckSpec> specs, Check check, LimitUnit unit, Scaling scaling,
                            double warning, Double critical) {
        specs.put(check, new CheckSpec(check, unit, scaling, warning, critical, null, null));
    }
}
