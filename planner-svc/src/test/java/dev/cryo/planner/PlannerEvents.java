package dev.cryo.planner;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.ManifestStats;
import dev.cryo.contracts.event.PartitionFieldInfo;
import dev.cryo.contracts.event.PartitionSpecInfo;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.SnapshotStats;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.event.TableTotals;
import org.apache.kafka.common.utils.Utils;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/** The scans, grades and tables {@link PlannerFlowTest} sends the planner. */
final class PlannerEvents {

    static final long MIB = 1024L * 1024;
    static final long TARGET = 512 * MIB;
    private static final int PARTITIONS = Topics.all().stream().filter(spec -> spec.name().equals(Topics.PLANS))
            .findFirst().orElseThrow().partitions();

    private PlannerEvents() {
    }

    static <T extends CryoEvent> EventEnvelope<T> envelope(T event) {
        return EventEnvelope.startChain(event, "/cryo/planner-test", Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    static TableId randomTable(String prefix) {
        return TableId.parse("lake.planner_test." + prefix + "_" + UUID.randomUUID().toString().substring(0, 8));
    }

    static TableId tableOnTheSamePartitionAs(TableId other) {
        int partition = partitionOf(other);
        while (true) {
            TableId candidate = randomTable("unhealthy");
            if (partitionOf(candidate) == partition) {
                return candidate;
            }
        }
    }

    /** Kafka's default partitioner for a keyed record. */
    private static int partitionOf(TableId table) {
        return Utils.toPositive(Utils.murmur2(table.toString().getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
    }

    /** A day-partitioned table: a hot day with 40 small files, a quiet day with 2. */
    static TableScanned scan(TableId table, String scanId) {
        return scan(table, scanId, Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    static TableScanned scan(TableId table, String scanId, Instant now) {
        PartitionSpecInfo daily = new PartitionSpecInfo(0,
                List.of(new PartitionFieldInfo("event_day", "event_ts", 2, "timestamptz", "day")));
        return new TableScanned(table, scanId, now, Duration.ofMillis(20), 2, 1L, 1L, now, "file:///tmp/" + table,
                FileSizeTerms.forTarget(TARGET), TableTotals.EMPTY, List.of(daily),
                List.of(partition(0, "20786", 40), partition(0, "20785", 2)), null, null, null, null, null, null);
    }

    static PartitionStats partition(int specId, String day, long smallFiles) {
        return new PartitionStats(specId, List.of(day), smallFiles, smallFiles * 10 * MIB, smallFiles * 100, smallFiles,
                smallFiles * 10 * MIB, 0, List.of(), 0, 0, 0, 0);
    }

    /** A table whose scan no check can fault: 2 files of 400 MiB, one fresh snapshot, one manifest. */
    static TableScanned healthyScan(TableId table) {
        PartitionSpecInfo unpartitioned = new PartitionSpecInfo(0, List.of());
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        long bytes = 2 * 400 * MIB;
        return new TableScanned(table, "scan-" + UUID.randomUUID(), now, Duration.ofMillis(20), 2, 1L, 1L, now,
                "file:///tmp/" + table, FileSizeTerms.forTarget(TARGET),
                new TableTotals(1, 2, bytes, 20_000, 0, 0, 0, 0, 0, 0, 0), List.of(unpartitioned),
                List.of(new PartitionStats(0, List.of(), 2, bytes, 20_000, 0, 0, 0, List.of(), 0, 0, 0, 0)),
                new SnapshotStats(1, now, now, 1, 0), new ManifestStats(1, 8192, 1, 0, 0, null), null, null, null, null);
    }

    /** A grade stamped an hour ahead, so it is the newest grade of its table (see the class comment). */
    static TableGraded grade(TableScanned scan, Deduction... deductions) {
        int score = Math.max(0, 100 - Arrays.stream(deductions).mapToInt(Deduction::points).sum());
        return new TableGraded(scan.table(), scan.scanId(), scan.snapshotId(),
                Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.MILLIS), score, Grade.of(score), 1.0, List.of(deductions), List.of());
    }

    static Deduction small(Severity severity) {
        return deduction(Check.SMALL_FILES, severity);
    }

    static Deduction deduction(Check check, Severity severity) {
        return new Deduction(check, severity, severity.points(), 1, 1, "count", check.fixedBy(), check + " crossed its limit");
    }
}
