package dev.cryo.console.domain;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.PartitionSpecInfo;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.event.TableTotals;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/** Scans built by hand for the rendering tests. */
final class ScanSamples {

    static final Instant SCANNED = Instant.parse("2026-11-29T10:00:00Z");

    static TableScanned scan(List<PartitionSpecInfo> specs, List<PartitionStats> partitions) {
        long files = partitions.stream().mapToLong(PartitionStats::dataFiles).sum();
        long small = partitions.stream().mapToLong(PartitionStats::smallFiles).sum();
        return new TableScanned(TableId.parse("lake.web.clicks"), "scan-1", SCANNED, Duration.ofMillis(120), 2, 9L, 9L,
                SCANNED, "file:///warehouse/web/clicks", FileSizeTerms.forTarget(512L << 20),
                new TableTotals(partitions.size(), files, files * 1000, files * 10, small, small * 1000, 0, 0, 0, 0, 0),
                specs, partitions, null, null, null, null, null, null);
    }

    /** A partition with this many small files of its data files, and one delete file when asked. */
    static PartitionStats partition(int specId, long dataFiles, long smallFiles, long deleteFiles, String... values) {
        return new PartitionStats(specId, Arrays.asList(values), dataFiles, dataFiles * 1000, dataFiles * 10, smallFiles,
                smallFiles * 1000, 0, List.of(), deleteFiles, deleteFiles * 3, 0, 0);
    }

    private ScanSamples() {
    }
}
