package dev.cryo.executor.iceberg;

import org.apache.iceberg.StructLike;

import java.util.Arrays;

/**
 * An immutable partition tuple, equal to another of the same values: a partition addressed by a
 * plan, or a copy of one read from a manifest (manifest readers reuse their tuples).
 */
record PartitionTuple(Object[] values) implements StructLike {

    /** A copy of {@code partition}'s values. */
    static PartitionTuple copyOf(StructLike partition) {
        Object[] values = new Object[partition.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = partition.get(i, Object.class);
        }
        return new PartitionTuple(values);
    }

    @Override
    public int size() {
        return values.length;
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
        return javaClass.cast(values[pos]);
    }

    @Override
    public <T> void set(int pos, T value) {
        throw new UnsupportedOperationException("partition tuples are immutable");
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PartitionTuple tuple && Arrays.equals(values, tuple.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return Arrays.toString(values);
    }
}
