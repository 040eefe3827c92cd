package dev.cryo.scoring;

import dev.cryo.contracts.Check;
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
 * what an expiry would leave still crosses a snapshot check's limit at the same severity (every
 * snapshot younger than the retention, no more than {@code retainLast}, or a retention at or over
 * the snapshot-age limit), the finding is held by that setting: no expiry can win its points back.
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
     * What expire_snapshots would leave of a table's snapshots now, estimated from the scan's count,
     * oldest and newest commit times as if the commits were spread evenly between them: the snapshots
     * younger than the retention, at least the newest {@code retainLast}, and, where the table has
     * tags or branches besides main, one snapshot each that a ref may keep (then the oldest is kept
     * as it is: a ref may pin it).
     *
     * @param newCommits snapshots committed before the expiry runs (the job's own rewrites): they are
     *                   the newest, and count towards {@code retainLast}
     */
    public SnapshotStats after(SnapshotStats snapshots, Instant now, int newCommits) {
        if (newCommits < 0) {
            throw new IllegalArgumentException("newCommits must not be negative: " + newCommits);
        }
        int count = snapshots.count();
        Instant newest = newCommits > 0 ? now : snapshots.newestAt();
        if (count == 0 || snapshots.oldestAt() == null || snapshots.newestAt() == null) {
            return new SnapshotStats(count + newCommits, newCommits > 0 && count == 0 ? now : snapshots.oldestAt(), newest,
                    snapshots.branches(), snapshots.tags());
        }
        int young = younger(snapshots, now.minus(retention));
        int kept = Math.min(count, Math.max(young, retainLast - newCommits));
        int pinned = Math.min(count - kept, snapshots.tags() + Math.max(0, snapshots.branches() - 1));
        Instant oldest;
        if (pinned > 0 || kept == count) {
            oldest = snapshots.oldestAt();
        } else if (kept == 0) {
            oldest = now;
        } else {
            oldest = kthNewest(snapshots, kept);
        }
        return new SnapshotStats(kept + pinned + newCommits, oldest, newest, snapshots.branches(), snapshots.tags());
    }

    /**
     * Why expire_snapshots cannot win back a snapshot finding: what it would leave still crosses the
     * same limit. Empty when it can.
     *
     * @param check snapshot-count or snapshot-age
     * @param before the scan's snapshots
     * @param after what {@link #after} leaves of them
     */
    public Optional<Held> holds(Check check, SnapshotStats before, SnapshotStats after) {
        if (check != Check.SNAPSHOT_COUNT && check != Check.SNAPSHOT_AGE) {
            throw new IllegalArgumentException(check + " is not a snapshot check");
        }
        String retentionText = Formats.age(retention.getSeconds());
        if (before.count() <= retainLast) {
            return Optional.of(new Held(retainLastSetting + " = " + retainLast, "retain last " + retainLast + " ("
                    + retainLastSetting + ") keeps all " + before.count() + " snapshots: expire_snapshots would remove"
                    + " none; lower it to let it"));
        }
        if (after.count() >= before.count()) {
            return Optional.of(new Held(retentionSetting + " = " + retentionText, "all " + before.count()
                    + " snapshots are younger than the retention of " + retentionText + " (" + retentionSetting
                    + "): expire_snapshots would remove none; lower the retention to let it"));
        }
        if (check == Check.SNAPSHOT_AGE && after.oldestAt() != null && after.oldestAt().equals(before.oldestAt())) {
            return Optional.of(new Held("the table's tags and branches", "the table has " + before.tags() + " tag(s) and "
                    + Math.max(0, before.branches() - 1) + " branch(es) besides main, whose snapshots expire_snapshots"
                    + " keeps: the oldest snapshot may be one of them; remove the ref or shorten its retention to let it"));
        }
        if (check == Check.SNAPSHOT_COUNT) {
            return Optional.of(new Held(retentionSetting + " = " + retentionText, "expire_snapshots would keep about "
                    + after.count() + " of " + before.count() + " snapshots, those younger than the retention of "
                    + retentionText + " (" + retentionSetting + "), still over the limit; lower the retention to let it"));
        }
        return Optional.of(new Held(retentionSetting + " = " + retentionText, "expire_snapshots keeps snapshots up to the"
                + " retention of " + retentionText + " (" + retentionSetting + ") old, which is still over the limit;"
                + " lower the retention or raise the limit"));
    }

    /** Snapshots committed after {@code cutoff}, under even spacing between the oldest and the newest. */
    private static int younger(SnapshotStats snapshots, Instant cutoff) {
        if (!snapshots.oldestAt().isBefore(cutoff)) {
            return snapshots.count();
        }
        if (snapshots.newestAt().isBefore(cutoff) || snapshots.count() == 1) {
            return 0;
        }
        double span = Duration.between(snapshots.oldestAt(), snapshots.newestAt()).toMillis();
        double share = span <= 0 ? 0 : Duration.between(cutoff, snapshots.newestAt()).toMillis() / span;
        // the newest is younger for sure; the others are spread over the span
        return Math.min(snapshots.count(), 1 + (int) Math.floor(share * (snapshots.count() - 1)));
    }

    /** The commit time of the k-th newest snapshot (k from 1), under even spacing. */
    private static Instant kthNewest(SnapshotStats snapshots, int k) {
        if (snapshots.count() == 1) {
            return snapshots.newestAt();
        }
        long span = Duration.between(snapshots.oldestAt(), snapshots.newestAt()).toMillis();
        long back = Math.round((double) span * (k - 1) / (snapshots.count() - 1));
        return snapshots.newestAt().minusMillis(back);
    }

    /** The setting that holds the snapshot checks, and why. */
    public record Held(String heldBy, String explanation) {
    }
}
