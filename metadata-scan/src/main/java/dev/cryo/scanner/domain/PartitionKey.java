package dev.cryo.scanner.domain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A partition of one spec: the spec id and the partition tuple as strings in Iceberg's internal
 * representation (null elements are null partition values).
 */
public record PartitionKey(int specId, List<String> values) implements Comparable<PartitionKey> {

    public PartitionKey {
        requireNonNull(values, "values is null");
        values = Collections.unmodifiableList(new ArrayList<>(values));
    }

    @Override
    public int compareTo(PartitionKey other) {
        if (specId != other.specId) {
            return Integer.compare(specId, other.specId);
        }
        for (int i = 0; i < Math.min(values.size(), other.values.size()); i++) {
            int compared = compareValue(values.get(i), other.values.get(i));
            if (compared != 0) {
                return compared;
            }
        }
        return Integer.compare(values.size(), other.values.size());
    }

    private static int compareValue(String left, String right) {
        if (left == null || right == null) {
            return left == null ? (right == null ? 0 : -1) : 1;
        }
        // numbers (days, hours, buckets) sort numerically so the list reads naturally
        if (isInteger(left) && isInteger(right)) {
            try {
                return Long.compare(Long.parseLong(left), Long.parseLong(right));
            } catch (NumberFormatException e) {
                return left.compareTo(right);
            }
        }
        return left.compareTo(right);
    }

    private static boolean isInteger(String value) {
        int length = value.length();
        if (length == 0 || length >= 19) {
            return false;
        }
        for (int i = value.charAt(0) == '-' && length > 1 ? 1 : 0; i < length; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
