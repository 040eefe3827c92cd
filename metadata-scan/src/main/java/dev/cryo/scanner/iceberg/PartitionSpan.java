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
import java.util.Objects;

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
        Map<Integer, SortedValues> sortedBySpec = new HashMap<>();
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
            List<ManifestFile.PartitionFieldSummary> summaries = manifest.partitions();
            int covered;
            if (summaries == null || summaries.isEmpty()) {
                covered = candidates.size();
            } else if (spec.fields().size() == 1 && summaries.size() == 1) {
                Type type = spec.partitionType().fields().get(0).type();
                covered = sortedBySpec.computeIfAbsent(spec.specId(), ignored -> SortedValues.of(type, candidates))
                        .covered(summaries.get(0), type);
            } else {
                covered = covered(summaries, spec, candidates);
            }
            sum += (double) covered / candidates.size();
            counted++;
        }
        return counted == 0 ? null : Math.min(1.0, sum / counted);
    }

    private static int covered(List<ManifestFile.PartitionFieldSummary> summaries, PartitionSpec spec,
                               List<Object[]> candidates) {
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

    /**
     * The sorted non-null values of a single-field spec's partitions: a manifest's coverage is then
     * two binary searches, so thousands of manifests over thousands of partitions stay cheap.
     */
    private record SortedValues(Object[] values, int nulls, Comparator<Object> comparator) {

        static SortedValues of(Type type, List<Object[]> candidates) {
            Comparator<Object> order = PartitionSpan.comparator(type);
            Object[] values = candidates.stream().map(tuple -> tuple[0]).filter(Objects::nonNull).sorted(order).toArray();
            return new SortedValues(values, candidates.size() - values.length, order);
        }

        int covered(ManifestFile.PartitionFieldSummary summary, Type type) {
            int covered = summary.containsNull() ? nulls : 0;
            Object lower = bound(type, summary.lowerBound());
            Object upper = bound(type, summary.upperBound());
            if (lower == null && upper == null) {
                return covered;
            }
            int from = lower == null ? 0 : search(lower, false);
            int to = upper == null ? values.length : search(upper, true);
            return covered + Math.max(0, to - from);
        }

        /** The first index whose value is at least the bound (or above it, when {@code above}). */
        private int search(Object bound, boolean above) {
            int low = 0;
            int high = values.length;
            while (low < high) {
                int middle = (low + high) >>> 1;
                int compared = comparator.compare(values[middle], bound);
                if (compared < 0 || (above && compared == 0)) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            return low;
        }
    }

    private static Object bound(Type type, ByteBuffer buffer) {
        return buffer == null ? null : Conversions.fromByteBuffer(type, buffer);
    }

    @SuppressWarnings("unchecked")
    private static Comparator<Object> comparator(Type type) {
        return (Comparator<Object>) (Comparator<?>) Comparators.forType(type.asPrimitiveType());
    }
}
