package dev.cryo.bench.harness;

import java.time.LocalDate;
import java.util.SplittableRandom;

/**
 * How scenario 7 lays out its metadata-only table: {@code files} data-file entries over
 * {@code partitions} consecutive days, appended in {@code commits} commits. Files are in time order,
 * as a streaming writer produces them: file i belongs to partition ⌊i·partitions/files⌋ and to commit
 * ⌊i·commits/files⌋, so every partition gets files/partitions (±1) entries and every commit a
 * contiguous run of days. Sizes are log-uniform between {@link #MIN_FILE_BYTES} and
 * {@link #MAX_FILE_BYTES} (small and large files mixed, so the scanner's size classes all occur),
 * drawn from the seed, so a layout is the same in every run. Pure values, no I/O.
 *
 * @param files data-file entries in all
 * @param partitions day partitions (at most files)
 * @param commits appends (at most files)
 * @param seed the seed of the sizes
 */
public record SyntheticLayout(int files, int partitions, int commits, long seed) {

    public static final long MIN_FILE_BYTES = 64L * 1024;
    public static final long MAX_FILE_BYTES = 256L * 1024 * 1024;
    /** Bytes per row of a synthetic file: record counts follow the sizes. */
    public static final long BYTES_PER_RECORD = 128;
    /** The first partition's day. */
    public static final LocalDate FIRST_DAY = LocalDate.of(2024, 1, 1);

    public SyntheticLayout {
        if (partitions < 1 || commits < 1) {
            throw new IllegalArgumentException("Cannot lay out " + files + " files: partitions (" + partitions
                    + ") and commits (" + commits + ") must be positive");
        }
        if (files < partitions || files < commits) {
            throw new IllegalArgumentException("Cannot lay out " + files + " files: set scan.files to at least "
                    + "scan.partitions (" + partitions + ") and scan.commits (" + commits + ")");
        }
    }

    /** The partition (0-based day index) of file i. */
    public int partitionOf(int file) {
        check(file);
        return (int) ((long) file * partitions / files);
    }

    /** The commit (0-based) that appends file i. */
    public int commitOf(int file) {
        check(file);
        return (int) ((long) file * commits / files);
    }

    /** The first file of commit c; commit c appends files [firstFileOf(c), firstFileOf(c + 1)). */
    public int firstFileOf(int commit) {
        if (commit < 0 || commit > commits) {
            throw new IllegalArgumentException("Cannot find commit " + commit + ": there are " + commits);
        }
        return (int) (((long) commit * files + commits - 1) / commits);
    }

    /** The day of a partition index. */
    public LocalDate dayOf(int partition) {
        if (partition < 0 || partition >= partitions) {
            throw new IllegalArgumentException("Cannot find partition " + partition + ": there are " + partitions);
        }
        return FIRST_DAY.plusDays(partition);
    }

    /** The size of file i in bytes: log-uniform in [MIN_FILE_BYTES, MAX_FILE_BYTES], fixed by seed and index. */
    public long sizeBytes(int file) {
        check(file);
        double unit = new SplittableRandom(seed * 1_000_003L + file).nextDouble();
        double logMin = Math.log(MIN_FILE_BYTES);
        double logMax = Math.log(MAX_FILE_BYTES);
        return Math.min(MAX_FILE_BYTES, Math.max(MIN_FILE_BYTES, Math.round(Math.exp(logMin + unit * (logMax - logMin)))));
    }

    /** The record count of file i. */
    public long records(int file) {
        return Math.max(1, sizeBytes(file) / BYTES_PER_RECORD);
    }

    /** Sum of every file's size. */
    public long totalBytes() {
        long total = 0;
        for (int file = 0; file < files; file++) {
            total += sizeBytes(file);
        }
        return total;
    }

    /** Sum of every file's record count. */
    public long totalRecords() {
        long total = 0;
        for (int file = 0; file < files; file++) {
            total += records(file);
        }
        return total;
    }

    /** Where file i would be: under the table's data directory and its partition, never written. */
    public String path(String tableLocation, int file) {
        check(file);
        return tableLocation + "/data/event_ts_day=" + dayOf(partitionOf(file)) + "/synthetic-" + String.format("%07d", file)
                + ".parquet";
    }

    private void check(int file) {
        if (file < 0 || file >= files) {
            throw new IllegalArgumentException("Cannot find file " + file + ": there are " + files);
        }
    }
}
