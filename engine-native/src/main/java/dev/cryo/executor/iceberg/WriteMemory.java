package dev.cryo.executor.iceberg;

import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

import java.util.concurrent.Semaphore;

/**
 * The heap that the native engine's Parquet writers and read-backs may hold at once, shared by
 * every rewrite of the process (an executor runs several jobs at once). A Parquet writer buffers a
 * whole row group before it flushes it, and a reader loads one row group's column chunks, so each
 * partition being written, or file being read back, reserves a row group plus a margin first and
 * waits while the heap is spoken for. However large the table, the rewrite's memory is bounded by
 * how many of these run at once, never by the size of a partition.
 */
final class WriteMemory {

    /** Share of the maximum heap the rewrites may reserve; the rest is for the service itself. */
    static final double HEAP_SHARE = 0.6;
    /** Reserved on top of a row group: decoding buffers, the input file being read, row objects. */
    static final long MARGIN_BYTES = 32L << 20;

    private static final long MIB = 1L << 20;
    private static final int MAX_MIB = 1 << 24;

    private final int totalMebibytes;
    private final Semaphore available;

    WriteMemory(long bytes) {
        this.totalMebibytes = (int) Math.max(1, Math.min(MAX_MIB, bytes / MIB));
        this.available = new Semaphore(totalMebibytes, true);
    }

    /** {@link #HEAP_SHARE} of this JVM's maximum heap. */
    /** What one Parquet writer or reader of {@code table} reserves: a row group of the table and the margin. */
    static long perStream(Table table) {
        return PropertyUtil.propertyAsLong(table.properties(), TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES,
                TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES_DEFAULT) + MARGIN_BYTES;
    }

    static WriteMemory shareOfHeap() {
        return new WriteMemory((long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE));
    }

    /** A held reservation; closing it gives the memory back. */
    interface Lease extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Waits until {@code bytes} are free and holds them. A reservation larger than the whole budget
     * takes the whole budget, so that one writer always proceeds.
     */
    Lease reserve(long bytes) {
        int wanted = (int) Math.min(totalMebibytes, Math.max(1, (bytes + MIB - 1) / MIB));
        try {
            available.acquire(wanted);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CryoException(ExecutorErrorCode.ENGINE_FAILURE, "Cannot rewrite: interrupted while waiting for "
                    + wanted + " MiB of the rewrite heap", e);
        }
        return () -> available.release(wanted);
    }

    int totalMebibytes() {
        return totalMebibytes;
    }

    int availableMebibytes() {
        return available.availablePermits();
    }
}
