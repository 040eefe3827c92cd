package dev.cryo.scoring;

import dev.cryo.contracts.event.SnapshotStats;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What expire_snapshots may remove under the table's own settings: snapshots older than the
 * retention beyond the newest {@code retainLast}. The table's {@code history.expire.*} properties
 * win over Cryo's defaults, as they do when the planner plans and the executor runs the expiry. When
 * every snapshot is younger than the retention, or there are no more than {@code retainLast}, the
 * snapshot checks are held by that setting: no expiry can win their points back.
 *
 * @param retention snapshots younger than this are kept
 * @param retainLast snapshots always kept
 * @param retentionSetting where the retention comes from, for people
 * @param retainLastSetting where retain-last comes from, for people
 */
public record SnapshotExpiry(Duration retention, int retainLast, String retentionSetting, String retainLastSetting) {

    /** Iceberg's table property for the retention, in milliseconds. */
    public static final String MAX_SNAPSHOT_AGE_PROPERTY = "history.expire.max-snapshot-age-ms";
    /** Iceberg's table property for the snapshots always kept. */
    public static final String MIN_SNAPSHOTS_TO_KEEP_PROPERTY = "history.expire.min-snapshots-to-keep";

    public SnapshotExpiry {
        requireNonNull(retention, "retention is null");
        if (retention.isNegative()) {
            throw new IllegalArgumentException("Cannot use snapshot retention " + retention + ": it is negative");
        }
        if (retainLast < 1) {
            throw new IllegalArgumentException("Cannot keep the last " + retainLast + " snapshots: at least 1");
        }
        requireNonNull(retentionSetting, "retentionSetting is null");
        requireNonNull(retainLastSetting, "retainLastSetting is null");
    }

    /** The defaults (the planner's), named by the settings that hold them. */
    public static SnapshotExpiry defaults(Duration retention, int retainLast) {
        return new SnapshotExpiry(retention, retainLast, "cryo.scorer.expiry.retention (the planner's cryo.planner.snapshot-retention)",
                "cryo.scorer.expiry.retain-last (the planner's cryo.planner.retain-last)");
    }

    /** The table's own settings where its properties set them, these defaults otherwise. */
    public SnapshotExpiry forTable(Map<String, String> properties) {
        Duration tableRetention = retention;
        String tableRetentionSetting = retentionSetting;
        String age = properties.get(MAX_SNAPSHOT_AGE_PROPERTY);
        if (age != null && age.trim().matches("\\d{1,18}")) {
            tableRetention = Duration.ofMillis(Long.parseLong(age.trim()));
            tableRetentionSetting = "the table's " + MAX_SNAPSHOT_AGE_PROPERTY;
        }
        int tableRetainLast = retainLast;
        String tableRetainLastSetting = retainLastSetting;
        String keep = properties.get(MIN_SNAPSHOTS_TO_KEEP_PROPERTY);
        if (keep != null && keep.trim().matches("0*[1-9]\\d{0,8}")) {
            tableRetainLast = Integer.parseInt(keep.trim());
            tableRetainLastSetting = "the table's " + MIN_SNAPSHOTS_TO_KEEP_PROPERTY;
        }
        return new SnapshotExpiry(tableRetention, tableRetainLast, tableRetentionSetting, tableRetainLastSetting);
    }

    /**
     * Why expire_snapshots could remove no snapshot now, or empty when it could remove some.
     *
     * @return the setting that holds them, with its value, and the explanation
     */
    public Optional<Held> holds(SnapshotStats snapshots, Instant now) {
        if (snapshots.count() == 0) {
            return Optional.empty();
        }
        if (snapshots.count() <= retainLast) {
            return Optional.of(new Held(retainLastSetting + " = " + retainLast, "retain last " + retainLast + " ("
                    + retainLastSetting + ") keeps all " + snapshots.count() + " snapshots: expire_snapshots would remove"
                    + " none; lower it to let it"));
        }
        if (snapshots.oldestAt() != null && !snapshots.oldestAt().isBefore(now.minus(retention))) {
            return Optional.of(new Held(retentionSetting + " = " + Formats.age(retention.getSeconds()), "all " + snapshots.count()
                    + " snapshots are younger than the retention of " + Formats.age(retention.getSeconds()) + " (" + retentionSetting
                    + "): expire_snapshots would remove none; lower the retention to let it"));
        }
        return Optional.empty();
    }

    /** The setting that holds the snapshot checks, and why. */
    public record Held(String heldBy, String explanation) {
    }
}
