package dev.cryo.scanner.iceberg;

import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.scanner.domain.ManifestAggregate;
import dev.cryo.scanner.domain.PartitionKey;
import dev.cryo.scanner.domain.PartitionTotals;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.io.FileIO;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one manifest (never a data file) and sums its live entries per partition. Deletion
 * vectors (v3, Puffin) count as position delete files; their record count is their cardinality.
 */
final class ManifestSummarizer {

    /** The data-file columns a scan needs; Avro skips the rest (column statistics are the bulk of a manifest). */
    private static final List<String> DATA_COLUMNS = List.of("file_size_in_bytes", "record_count", "partition");

    private ManifestSummarizer() {
    }

    static ManifestAggregate summarize(ManifestFile manifest, FileIO io, Map<Integer, PartitionSpec> specs,
                                       FileSizeTerms terms) {
        PartitionSpec spec = specs.get(manifest.partitionSpecId());
        if (spec == null) {
            throw new IllegalStateException("Cannot read manifest " + manifest.path() + ": unknown partition spec "
                    + manifest.partitionSpecId());
        }
        Map<List<String>, PartitionTotals> partitions = new LinkedHashMap<>();
        if (manifest.content() == ManifestContent.DATA) {
            try (ManifestReader<DataFile> reader = ManifestFiles.read(manifest, io, specs).select(DATA_COLUMNS)) {
                for (DataFile file : reader) {
                    totalsOf(partitions, spec, file.partition())
                            .addDataFile(file.fileSizeInBytes(), file.recordCount(), terms);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read manifest " + manifest.path() + ": " + e.getMessage(), e);
            }
        } else {
            try (ManifestReader<DeleteFile> reader = ManifestFiles.readDeleteManifest(manifest, io, specs)) {
                for (DeleteFile file : reader) {
                    PartitionTotals totals = totalsOf(partitions, spec, file.partition());
                    if (file.content() == FileContent.EQUALITY_DELETES) {
                        totals.addEqualityDeletes(file.recordCount());
                    } else {
                        totals.addPositionDeletes(file.recordCount());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read manifest " + manifest.path() + ": " + e.getMessage(), e);
            }
        }
        return new ManifestAggregate(manifest.path(), partitions.values().stream().map(PartitionTotals::toStats).toList());
    }

    private static PartitionTotals totalsOf(Map<List<String>, PartitionTotals> partitions, PartitionSpec spec,
                                            org.apache.iceberg.StructLike partition) {
        List<String> values = PartitionValues.of(spec, spec.isUnpartitioned() ? null : partition);
        PartitionTotals totals = partitions.get(values);
        if (totals == null) {
            totals = new PartitionTotals(new PartitionKey(spec.specId(), values));
            partitions.put(values, totals);
        }
        return totals;
    }
}
