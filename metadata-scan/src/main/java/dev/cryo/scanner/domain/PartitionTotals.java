package dev.cryo.scanner.domain;

import dev.cryo.contracts.event.FileSizeHistogram;
import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.PartitionStats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Sums of one partition while files are counted or aggregates merged. Not thread-safe: one
 * scan owns its accumulators.
 */
public final class PartitionTotals {

    private final PartitionKey key;
    private long dataFiles;
    private long dataBytes;
    private long records;
    private long smallFiles;
    private long smallFileBytes;
    private long oversizedFiles;
    private final long[] histogram = new long[FileSizeHistogram.BUCKETS];
    private long positionDeleteFiles;
    private long positionDeleteRecords;
    private long equalityDeleteFiles;
    private long equalityDeleteRecords;

    public PartitionTotals(PartitionKey key) {
        this.key = key;
    }

    public PartitionKey key() {
        return key;
    }

    /** Counts one live data file. */
    public void addDataFile(long sizeBytes, long recordCount, FileSizeTerms terms) {
        dataFiles++;
        dataBytes += sizeBytes;
        records += recordCount;
        if (sizeBytes < terms.smallFileThresholdBytes()) {
            smallFiles++;
            smallFileBytes += sizeBytes;
        }
        if (sizeBytes > terms.oversizedFileThresholdBytes()) {
            oversizedFiles++;
        }
        histogram[FileSizeHistogram.bucketOf(sizeBytes, terms.targetFileSizeBytes())]++;
    }

    /** Counts one live position delete file or deletion vector ({@code recordCount} = deleted positions). */
    public void addPositionDeletes(long recordCount) {
        positionDeleteFiles++;
        positionDeleteRecords += recordCount;
    }

    public void addEqualityDeletes(long recordCount) {
        equalityDeleteFiles++;
        equalityDeleteRecords += recordCount;
    }

    /** Adds an aggregate of the same partition (from another manifest). */
    public void add(PartitionStats stats) {
        dataFiles += stats.dataFiles();
        dataBytes += stats.dataBytes();
        records += stats.records();
        smallFiles += stats.smallFiles();
        smallFileBytes += stats.smallFileBytes();
        oversizedFiles += stats.oversizedFiles();
        List<Long> other = stats.sizeHistogram();
        for (int i = 0; i < other.size(); i++) {
            histogram[i] += other.get(i);
        }
        positionDeleteFiles += stats.positionDeleteFiles();
        positionDeleteRecords += stats.positionDeleteRecords();
        equalityDeleteFiles += stats.equalityDeleteFiles();
        equalityDeleteRecords += stats.equalityDeleteRecords();
    }

    public PartitionStats toStats() {
        List<Long> buckets = new ArrayList<>(FileSizeHistogram.BUCKETS);
        Arrays.stream(histogram).forEach(buckets::add);
        return new PartitionStats(key.specId(), key.values(), dataFiles, dataBytes, records, smallFiles, smallFileBytes,
                oversizedFiles, buckets, positionDeleteFiles, positionDeleteRecords, equalityDeleteFiles,
                equalityDeleteRecords);
    }
}
