package dev.cryo.scanner.iceberg;

import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.scanner.domain.PartitionKey;
import org.apache.iceberg.Table;

import java.util.Map;

/** Opens the metadata-table reference to tests in other packages. */
public final class ScannerTestAccess {

    public static Map<PartitionKey, PartitionStats> expectedPartitions(Table table, FileSizeTerms terms) {
        return MetadataTables.expectedPartitions(table, terms);
    }

    private ScannerTestAccess() {
    }
}
