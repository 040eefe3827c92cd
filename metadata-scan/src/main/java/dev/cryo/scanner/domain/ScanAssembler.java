package dev.cryo.scanner.domain;

import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.TableTotals;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Merges the aggregates of a snapshot's manifests into per-partition statistics and table totals. */
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

    public static TableTotals totals(List<PartitionStats> partitions) {
        long dataFiles = 0;
        long dataBytes = 0;
        long records = 0;
        long smallFiles = 0;
        long smallFileBytes = 0;
        long oversizedFiles = 0;
        long positionDeleteFiles = 0;
        long positionDeleteRecords = 0;
        long equalityDeleteFiles = 0;
        long equalityDeleteRecords = 0;
        for (PartitionStats partition : partitions) {
            dataFiles += partition.dataFiles();
            dataBytes += partition.dataBytes();
            records += partition.records();
            smallFiles += partition.smallFiles();
            smallFileBytes += partition.smallFileBytes();
            oversizedFiles += partition.oversizedFiles();
            positionDeleteFiles += partition.positionDeleteFiles();
            positionDeleteRecords += partition.positionDeleteRecords();
            equalityDeleteFiles += partition.equalityDeleteFiles();
            equalityDeleteRecords += partition.equalityDeleteRecords();
        }
        return new TableTotals(partitions.size(), dataFiles, dataBytes, records, smallFiles, smallFileBytes,
                oversizedFiles, positionDeleteFiles, positionDeleteRecords, equalityDeleteFiles, equalityDeleteRecords);
    }

    private ScanAssembler() {
    }
}
