package dev.cryo.demo.fleet;

import dev.cryo.demo.fleet.DemoTable.LiveWriterKind;
import dev.cryo.iceberg.fixtures.SampleTables;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.data.Record;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The demo fleet: thirteen tables in the states that real fleets have them in. Each comment
 * says what the scorer is expected to find; the fleet test checks the metadata that causes it.
 *
 * <p>Every table targets 2 MiB data files ({@code write.target-file-size-bytes}), so a file
 * under 512 KiB is small and one over 4 MiB oversized: the whole fleet takes about 100 MB of
 * disk instead of the hundreds of gigabytes the same shapes have with Iceberg's 512 MiB default.
 */
public final class Fleet {

    /** Table property that marks a demo table whose recipe ran to the end. */
    public static final String COMPLETE_PROPERTY = "demo.complete";
    /** Table property holding the table's story, for people browsing the catalog. */
    public static final String STORY_PROPERTY = "demo.story";

    static final long TARGET_FILE_BYTES = 2L * 1024 * 1024;

    /** Rows of the CDC table; its upserts pick ids below this. */
    public static final int ACCOUNTS_ROWS = 32_000;

    private static final Duration DAY = Duration.ofDays(1);
    private static final Duration HOUR = Duration.ofHours(1);

    /** The tables, in the order they are created: quick ones first, so grades show up early. */
    public static List<DemoTable> tables() {
        return List.of(customers(), payments(), dimProducts(), clickstream(), accountsCdc(), auditEvents(), returns(),
                trips(), ledger(), orders(), pageViews(), sensorReadings(), inventorySnapshots());
    }

    /** The tables that a live writer keeps changing. */
    public static List<DemoTable> liveTables() {
        return tables().stream().filter(table -> table.liveWriter().isPresent()).toList();
    }

    // Quiet: a dimension table nobody writes any more. Expected: A 100.
    static DemoTable customers() {
        return table("customers", "quiet: a dimension table nobody has written for months, and that is fine",
                PartitionSpec.unpartitioned(), 2, Map.of(), (table, data) -> {
                    OffsetDateTime start = data.now().minusDays(400);
                    data.append(data.goodFileRows(start, Duration.ofDays(120)), data.goodFileRows(start.plusDays(120),
                            Duration.ofDays(120)), data.goodFileRows(start.plusDays(240), Duration.ofDays(120)));
                }, null);
    }

    // Healthy: one well-sized file per hour, written by an hourly batch job. Expected: A 100.
    static DemoTable payments() {
        return table("payments", "healthy: an hourly batch job writes one well-sized file per hour",
                hourly(), 2, Map.of(), (table, data) -> {
                    OffsetDateTime hour = data.now().truncatedTo(ChronoUnit.HOURS);
                    for (int i = 12; i >= 1; i--) {
                        data.append(data.goodFileRows(hour.minusHours(i), HOUR));
                    }
                }, null);
    }

    // Grade A with a warning: 8 small files of 18 (44 %, warning from 20 %). Expected: A 92,
    // and no plan: the planner never rewrites a grade-A table on its own.
    static DemoTable dimProducts() {
        return table("dim_products", "grade A with one warning: a few small files that Cryo leaves alone unless asked",
                PartitionSpec.unpartitioned(), 2, Map.of(), (table, data) -> {
                    OffsetDateTime start = data.now().minusDays(30);
                    List<List<Record>> batches = new ArrayList<>();
                    for (int i = 0; i < 10; i++) {
                        batches.add(data.goodFileRows(start.plusDays(i), DAY));
                    }
                    data.appendAll(batches);
                    for (int i = 0; i < 8; i++) {
                        data.append(data.rows(200, data.now().minusHours(8 - i), HOUR));
                    }
                }, null);
    }

    // Steadily fragmenting: a streaming job appends a small file every few seconds through the
    // commit reporter. Starts at A 100 (16 good files), warns after 8 small files, turns
    // critical at 16 (50 %); Cryo compacts the current hour. Snapshots older than 5 minutes
    // may be expired (the table says so), since a streaming table piles them up fast.
    static DemoTable clickstream() {
        return table("clickstream", "steadily fragmenting: a streaming job appends a small file every few seconds",
                hourly(), 2, Map.of("history.expire.max-snapshot-age-ms", String.valueOf(Duration.ofMinutes(5).toMillis()),
                        "history.expire.min-snapshots-to-keep", "10"), (table, data) -> {
                    OffsetDateTime hour = data.now().truncatedTo(ChronoUnit.HOURS);
                    for (int i = 16; i >= 1; i--) {
                        data.append(data.goodFileRows(hour.minusHours(i), HOUR));
                    }
                }, LiveWriterKind.STREAMING_APPENDS);
    }

    // CDC with row-level updates: upserts (equality deletes + new versions in small files) and
    // deletes by position. Expected: small-files critical, equality-deletes warning (32 files),
    // delete-ratio warning (~0.13): C 64. Live upserts keep adding equality deletes.
    static DemoTable accountsCdc() {
        return table("accounts_cdc", "CDC: MERGE/UPDATE upserts every few seconds leave equality and position deletes",
                PartitionSpec.builderFor(SampleTables.EVENTS).bucket("id", 4).build(), 2, Map.of(), (table, data) -> {
                    data.append(data.rows(ACCOUNTS_ROWS, data.now().minusDays(90), Duration.ofDays(90)));
                    for (int round = 0; round < 8; round++) {
                        data.upsert(randomIds(data, 300), data.now().minusHours(8 - round));
                    }
                    List<DataFile> base = data.dataFiles().stream().filter(file -> file.recordCount() > 1000).toList();
                    for (int round = 0; round < 4; round++) {
                        Map<DataFile, long[]> deletes = new HashMap<>();
                        for (DataFile file : base) {
                            deletes.put(file, positions(round * 200L, 200, 1));
                        }
                        data.deletePositions(deletes);
                    }
                }, LiveWriterKind.CDC_UPSERTS);
    }

    // Orphan files: uncommitted Parquet files of failed jobs, 5 days old, as large as 85 % of
    // the table (critical from 25 %), plus two young ones under the 3-day floor that never
    // count. Expected after the first orphan listing: B 80.
    static DemoTable auditEvents() {
        return table("audit_events", "orphan files: failed jobs left uncommitted Parquet files behind",
                daily(), 2, Map.of(), (table, data) -> {
                    OffsetDateTime day = data.now().truncatedTo(ChronoUnit.DAYS);
                    for (int i = 6; i >= 1; i--) {
                        data.append(data.goodFileRows(day.minusDays(i), DAY));
                    }
                    data.plantOrphans(10, TableData.GOOD_FILE_ROWS / 2, Duration.ofDays(5));
                    data.plantOrphans(2, 500, Duration.ofHours(1));
                }, null);
    }

    // Merge-on-read deletes in format v3: deletion vectors remove 40 % of the rows of six of the
    // eight files. Expected: delete-ratio critical (0.30, critical from 0.25): B 80.
    static DemoTable returns() {
        return table("returns", "format v3 merge-on-read: deletion vectors hide 30 % of the rows",
                daily(), 3, Map.of(), (table, data) -> {
                    OffsetDateTime day = data.now().truncatedTo(ChronoUnit.DAYS);
                    for (int i = 8; i >= 1; i--) {
                        data.append(data.goodFileRows(day.minusDays(i), DAY));
                    }
                    Map<DataFile, long[]> deletes = new HashMap<>();
                    data.dataFiles().stream().limit(6).forEach(file ->
                            deletes.put(file, positions(0, (int) (file.recordCount() * 4 / 10), 1)));
                    data.deletePositions(deletes);
                }, null);
    }

    // Partitioned by day, then by hour: late data left small files in an old day partition
    // (spec 0) and the new hourly partitions collect small files too (spec 1). Expected:
    // small-files critical (22 of 28): B 80; the plan addresses both specs.
    static DemoTable trips() {
        return table("trips", "evolved partitioning: by day, then by hour; small files under both specs",
                daily(), 2, Map.of(), (table, data) -> {
                    OffsetDateTime day = data.now().truncatedTo(ChronoUnit.DAYS);
                    for (int i = 7; i >= 2; i--) {
                        data.append(data.goodFileRows(day.minusDays(i), DAY));
                    }
                    for (int i = 0; i < 5; i++) {
                        data.append(data.rows(150, day.minusDays(2), DAY), data.rows(150, day.minusDays(2), DAY));
                    }
                    table.updateSpec().removeField("event_ts_day")
                            .addField(org.apache.iceberg.expressions.Expressions.hour("event_ts")).commit();
                    OffsetDateTime hour = data.now().truncatedTo(ChronoUnit.HOURS);
                    for (int i = 0; i < 6; i++) {
                        data.append(data.rows(150, hour.minusHours(3), HOUR), data.rows(150, hour.minusHours(2), HOUR));
                    }
                }, null);
    }

    // A large table without column statistics: the missing-statistics check applies from 1 GiB
    // by default; this table's own properties lower it to 4 MiB (warning) and 8 MiB (critical)
    // so the demo stays small. Expected: B 80 until compute_statistics; then a batch every
    // minute makes the statistics go stale (warning at 20 % rows changed).
    static DemoTable ledger() {
        return table("ledger", "no column statistics on a large table; a batch every minute makes them stale again",
                PartitionSpec.builderFor(SampleTables.EVENTS).month("event_ts").build(), 2,
                Map.of("cryo.missing-statistics.warning", String.valueOf(4L * 1024 * 1024),
                        "cryo.missing-statistics.critical", String.valueOf(8L * 1024 * 1024)), (table, data) -> {
                    OffsetDateTime month = data.now().truncatedTo(ChronoUnit.DAYS).withDayOfMonth(1);
                    for (int i = 4; i >= 1; i--) {
                        OffsetDateTime start = month.minusMonths(i);
                        data.append(data.goodFileRows(start, Duration.ofDays(7)), data.goodFileRows(start.plusDays(7), Duration.ofDays(7)),
                                data.goodFileRows(start.plusDays(14), Duration.ofDays(7)), data.goodFileRows(start.plusDays(21), Duration.ofDays(7)));
                    }
                }, LiveWriterKind.BATCH_APPENDS);
    }

    // Big and healthy: two well-sized files per day for ten days. Expected: A 100.
    static DemoTable orders() {
        return table("orders", "big and healthy: a daily batch job writes well-sized files",
                daily(), 2, Map.of(), (table, data) -> {
                    OffsetDateTime day = data.now().truncatedTo(ChronoUnit.DAYS);
                    for (int i = 10; i >= 1; i--) {
                        data.append(data.goodFileRows(day.minusDays(i), Duration.ofHours(12)),
                                data.goodFileRows(day.minusDays(i).plusHours(12), Duration.ofHours(12)));
                    }
                }, null);
    }

    // Badly fragmented: 105 commits over 20 days, each adding two tiny files to a hot partition
    // and a small one to one of 19 older days in turn; manifests are never merged. Expected:
    // small-files critical, partition-skew, snapshot-count, snapshot-age and manifest-count
    // warnings (maybe manifest-clustering too): D 48 or lower. Every partition holds enough data
    // for well-sized files, so compaction, manifest rewrite and expiry make it healthy again.
    static DemoTable pageViews() {
        return table("page_views", "badly fragmented: 315 small files from 105 commits, a hot partition, unmerged manifests",
                daily(), 2, Map.of("commit.manifest-merge.enabled", "false"), (table, data) -> {
                    OffsetDateTime day = data.now().truncatedTo(ChronoUnit.DAYS);
                    int commits = 105;
                    for (int i = 0; i < commits; i++) {
                        OffsetDateTime other = day.minusDays(2 + i % 19);
                        data.append(data.rows(300, day.minusDays(1), DAY), data.rows(300, day.minusDays(1), DAY),
                                data.rows(1500, other, DAY));
                    }
                    Instant now = data.now().toInstant();
                    data.backdate(spread(now.minus(Duration.ofDays(20)), now.minus(Duration.ofHours(2)), commits));
                }, null);
    }

    // Many manifests: 105 late-arriving hourly loads, each its own manifest (merging is off),
    // over 10 days. Its own target is 512 KiB, so its 200 KB files are not small. Expected:
    // manifest-count, snapshot-count and snapshot-age warnings: B 76.
    static DemoTable sensorReadings() {
        return table("sensor_readings", "many manifests: 105 hourly loads, each its own manifest, never merged",
                hourly(), 2, Map.of("commit.manifest-merge.enabled", "false",
                        "write.target-file-size-bytes", String.valueOf(512 * 1024)), (table, data) -> {
                    OffsetDateTime hour = data.now().truncatedTo(ChronoUnit.HOURS);
                    int commits = 105;
                    for (int i = 0; i < commits; i++) {
                        data.append(data.rows(2000, hour.minusMinutes(130L * (commits - i)), Duration.ofMinutes(10)));
                    }
                    Instant now = data.now().toInstant();
                    data.backdate(spread(now.minus(Duration.ofDays(10)), now.minus(Duration.ofHours(1)), commits));
                }, null);
    }

    // Snapshot pile-up: 110 small overwrites that nobody expired, the oldest 45 days ago.
    // Expected: snapshot-count warning and snapshot-age critical: C 72. expire_snapshots (7 days,
    // keep 10) leaves the last ten, all from the last three days: A 100.
    static DemoTable inventorySnapshots() {
        return table("inventory_snapshots", "snapshot pile-up: 110 overwrites over 45 days and nobody expired them",
                PartitionSpec.unpartitioned(), 2, Map.of(), (table, data) -> {
                    OffsetDateTime start = data.now().minusDays(45);
                    data.append(data.goodFileRows(start, DAY), data.goodFileRows(start.plusDays(1), DAY));
                    DataFile current = data.append(data.rows(50, data.now().minusDays(45), HOUR)).get(0);
                    int commits = 110;
                    for (int i = 2; i < commits; i++) {
                        current = data.replace(current, data.rows(50, data.now().minusHours(1), HOUR));
                    }
                    Instant now = data.now().toInstant();
                    IntFunction<Instant> old = spread(now.minus(Duration.ofDays(45)), now.minus(Duration.ofDays(10)), commits - 10);
                    IntFunction<Instant> recent = spread(now.minus(Duration.ofDays(3)), now.minus(Duration.ofHours(1)), 10);
                    data.backdate(i -> i < commits - 10 ? old.apply(i) : recent.apply(i - (commits - 10)));
                }, null);
    }

    /** Evenly spaced instants from {@code oldest} to {@code newest}, for {@code count} snapshots. */
    static IntFunction<Instant> spread(Instant oldest, Instant newest, int count) {
        long stepMillis = count <= 1 ? 0 : Duration.between(oldest, newest).toMillis() / (count - 1);
        return i -> oldest.plusMillis(stepMillis * i);
    }

    /** {@code count} positions from {@code first}, {@code step} apart. */
    static long[] positions(long first, int count, int step) {
        long[] positions = new long[count];
        for (int i = 0; i < count; i++) {
            positions[i] = first + (long) i * step;
        }
        return positions;
    }

    /** Distinct random ids of the CDC table. */
    static Set<Long> randomIds(TableData data, int count) {
        Set<Long> ids = new LinkedHashSet<>();
        while (ids.size() < count) {
            ids.add((long) data.random().nextInt(ACCOUNTS_ROWS));
        }
        return ids;
    }

    private static PartitionSpec daily() {
        return PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build();
    }

    private static PartitionSpec hourly() {
        return PartitionSpec.builderFor(SampleTables.EVENTS).hour("event_ts").build();
    }

    private static DemoTable table(String name, String story, PartitionSpec spec, int formatVersion,
                                   Map<String, String> extraProperties, Recipe recipe, LiveWriterKind liveWriter) {
        Map<String, String> properties = new HashMap<>();
        properties.put("write.target-file-size-bytes", String.valueOf(TARGET_FILE_BYTES));
        properties.put(STORY_PROPERTY, story);
        properties.putAll(extraProperties);
        return new DemoTable(name, story, SampleTables.EVENTS, spec, formatVersion, properties, recipe,
                Optional.ofNullable(liveWriter));
    }

    private Fleet() {
    }
}
