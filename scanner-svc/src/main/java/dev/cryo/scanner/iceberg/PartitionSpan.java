package dev.cryo.scanner.iceberg;

import dev.cryo.contracts.event.PartitionStats;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How badly manifests defeat partition pruning: for each data manifest, the share of the
 * partitions of its spec (those with live data files) that its partition bounds (the manifest
 * list's field summaries) cover; the mean over the data manifests of partitioned specs. A query
 * planner must open a manifest for every partition inside its bounds, so a share near 1 means
 * every query reads every manifest.
 */
final class PartitionSpan {

    private PartitionSpan() {
    }

    /** The mean share, 0..1, or null when no data manifest has a partitioned spec or no partition has data. */
    static Double meanShare(List<ManifestFile> manifests, Map<Integer, PartitionSpec> specs,
                            List<PartitionStats> partitions) {
        Map<Integer, List<Object[]>> valuesBySpec = new HashMap<>();
        for (PartitionStats partition : partitions) {
            PartitionSpec spec = specs.get(partition.specId());
            if (spec == null || spec.isUnpartitioned() || partition.dataFiles() == 0) {
                continue;
            }
            List<Types.NestedField> fields = spec.partitionType().fields();
            Object[] typed = new Object[fields.size()];
            for (int i = 0; i < typed.length; i++) {
                typed[i] = PartitionValues.fromText(fields.get(i).type(), partition.values().get(i));
            }
            valuesBySpec.computeIfAbsent(partition.specId(), ignored -> new ArrayList<>()).add(typed);
        }
        double sum = 0;
        int counted = 0;
        for (ManifestFile manifest : manifests) {
            PartitionSpec spec = specs.get(manifest.partitionSpecId());
            if (manifest.content() != ManifestContent.DATA || spec == null || spec.isUnpartitioned()) {
                continue;
            }
            List<Object[]> candidates = valuesBySpec.getOrDefault(spec.specId(), List.of());
            if (candidates.isEmpty()) {
                continue;
            }
            sum += (double) covered(manifest, spec, candidates) / candidates.size();
            counted++;
        }
        return counted == 0 ? null : Math.min(1.0, sum / counted);
    }

    private static int covered(ManifestFile manifest, PartitionSpec spec, List<Object[]> candidates) {
        List<ManifestFile.PartitionFieldSummary> summaries = manifest.partitions();
        if (summaries == null || summaries.isEmpty()) {
            return candidates.size();
        }
        List<Types.NestedField> fields = spec.partitionType().fields();
        int fieldCount = Math.min(fields.size(), summaries.size());
        Object[] lower = new Object[fieldCount];
        Object[] upper = new Object[fieldCount];
        List<Comparator<Object>> comparators = new ArrayList<>(fieldCount);
        for (int i = 0; i < fieldCount; i++) {
            Type type = fields.get(i).type();
            lower[i] = bound(type, summaries.get(i).lowerBound());
            upper[i] = bound(type, summaries.get(i).upperBound());
            comparators.add(comparator(type));
        }
        int covered = 0;
        for (Object[] values : candidates) {
            boolean inside = true;
            for (int i = 0; i < fieldCount && inside; i++) {
                Object value = values[i];
                if (value == null) {
                    inside = summaries.get(i).containsNull();
                } else if (lower[i] == null && upper[i] == null) {
                    // the manifest holds only null values for this field
                    inside = false;
                } else {
                    inside = (lower[i] == null || comparators.get(i).compare(value, lower[i]) >= 0)
                            && (upper[i] == null || comparators.get(i).compare(value, upper[i]) <= 0);
                }
            }
            if (inside) {
                covered++;
            }
        }
        return covered;
    }

    private static Object bound(Type type, ByteBuffer buffer) {
        return buffer == null ? null : Conversions.fromByteBuffer(type, buffer);
    }

    @SuppressWarnings("unchecked")
    private static Comparator<Object> comparator(Type type) {
        return (Comparator<Object>) (Comparator<?>) Comparators.forType(type.asPrimitiveType());
    }
}
