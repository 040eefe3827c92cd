package dev.cryo.scanner.domain;

import dev.cryo.contracts.event.PartitionStats;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Merges the aggregates of a snapshot's manifests into per-partition statistics (their sums: {@code TableTotals.of}). */
public final class ScanAssembler {

    /** Partition statistics of a snapshot whose manifests have these aggregates, sorted by spec and values. */
    public static List<PartitionStats> partitions(Collection<ManifestAggregate> manifests) {
        // hash first, sort once: a rescan merges thousands of cached aggregates
        Map<PartitionKey, PartitionTotals> byPartition = new HashMap<>();
        for (ManifestAggregate manifest : manifests) {
            for (PartitionStats stats : manifest.partitions()) {
                PartitionKey key = new PartitionKey(stats.specId(), stats.values());
                byPartition.computeIfAbsent(key, PartitionTotals::new).add(stats);
            }
        }
        return new TreeMap<>(byPartition).values().stream().map(PartitionTotals::toStats).toList();
    }

    private ScanAssembler() {
    }
}
