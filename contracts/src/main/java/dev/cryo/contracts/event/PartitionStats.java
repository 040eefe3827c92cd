package dev.cryo.contracts.event;

import java.util.List;

/**
 * Statistics of one partition of the current snapshot, from manifests only.
 *
 * @param specId the partition spec of the files counted here
 * @param values the partition tuple in Iceberg's internal representation, one per spec field, as strings
 *               ({@code day} = days since epoch, {@code hour} = hours since epoch, {@code month} = months since
 *               1970-01, {@code year} = years since 1970, {@code bucket} = bucket number, identity and truncate =
 *               the value); null elements are null partition values
 * @param dataFiles data files
 * @param dataBytes bytes of data files
 * @param records records in data files (before deletes)
 * @param smallFiles data files below the small-file threshold
 * @param smallFileBytes bytes of those small files
 * @param oversizedFiles data files above the oversized threshold
 * @param sizeHistogram data files per {@link FileSizeHistogram} bucket (empty if not measured)
 * @param positionDeleteFiles position delete files, deletion vectors included
 * @param positionDeleteRecords position delete records
 * @param equalityDeleteFiles equality delete files
 * @param equalityDeleteRecords equality delete records
 */
public record PartitionStats(
        int specId,
        List<String> values,
        long dataFiles,
        long dataBytes,
        long records,
        long smallFiles,
        long smallFileBytes,
        long oversizedFiles,
        List<Long> sizeHistogram,
        long positionDeleteFiles,
        long positionDeleteRecords,
        long equalityDeleteFiles,
        long equalityDeleteRecords) {

    public PartitionStats {
        Require.nonNegative(specId, "specId");
        values = Require.listWithNulls(values, "values");
        Require.nonNegative(dataFiles, "dataFiles");
        Require.nonNegative(dataBytes, "dataBytes");
        Require.nonNegative(records, "records");
        Require.nonNegative(smallFiles, "smallFiles");
        Require.nonNegative(smallFileBytes, "smallFileBytes");
        Require.nonNegative(oversizedFiles, "oversizedFiles");
        if (smallFiles > dataFiles || oversizedFiles > dataFiles) {
            throw new IllegalArgumentException("small or oversized files exceed data files in partition " + values);
        }
        sizeHistogram = FileSizeHistogram.check(sizeHistogram);
        Require.nonNegative(positionDeleteFiles, "positionDeleteFiles");
        Require.nonNegative(positionDeleteRecords, "positionDeleteRecords");
        Require.nonNegative(equalityDeleteFiles, "equalityDeleteFiles");
        Require.nonNegative(equalityDeleteRecords, "equalityDeleteRecords");
    }

    /** Delete files of both kinds. */
    public long deleteFiles() {
        return positionDeleteFiles + equalityDeleteFiles;
    }

    /** This partition with no equality delete file left (their rows applied to the data files). */
    public PartitionStats withoutEqualityDeletes() {
        return new PartitionStats(specId, values, dataFiles, dataBytes, records, smallFiles, smallFileBytes, oversizedFiles,
                sizeHistogram, positionDeleteFiles, positionDeleteRecords, 0, 0);
    }

    /**
     * This partition with no position delete file left and the rows they deleted gone from its
     * records (the data files rewritten with them applied).
     */
    public PartitionStats withoutPositionDeletes() {
        return new PartitionStats(specId, values, dataFiles, dataBytes, Math.max(0, records - positionDeleteRecords),
                smallFiles, smallFileBytes, oversizedFiles, sizeHistogram, 0, 0, equalityDeleteFiles, equalityDeleteRecords);
    }
}
