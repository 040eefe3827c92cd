package dev.cryo.bench.harness;

import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.SampleTables;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The rows a CDC table of scenario 3 should hold, kept lean enough for a table of millions of rows: per id its
 * day and the hash of its newest version (not the row), the ids of each day, and the expected fingerprint as a
 * running sum (a fingerprint is the row count and the sum of the row hashes). It also draws the MERGEs from one
 * seeded generator, so that every copy receives exactly the same changes whatever conflicts each copy meets.
 */
public final class CdcRows {

    private static final int CATEGORIES = 8;
    private static final int PAYLOAD_CHARS = 100;
    private static final Types.StructType STRUCT = SampleTables.EVENTS.asStruct();

    private final Random random;
    private final LongList[] idsByDay;
    private long[] hashes = new long[1 << 16];
    private long nextId = 1;
    private long rows;
    private long hashSum;

    /** One MERGE: the day it touches, the ids it updates, and the rows it writes (new versions, then inserts). */
    public record Change(int day, Set<Long> updated, List<Record> rows) {
    }

    public CdcRows(long seed, int days) {
        this.random = new Random(seed);
        this.idsByDay = new LongList[days];
        for (int day = 0; day < days; day++) {
            idsByDay[day] = new LongList();
        }
    }

    public int days() {
        return idsByDay.length;
    }

    /** New rows in one day, remembered as written (for the initial files, streamed by the caller). */
    public List<Record> insert(int day, int count) {
        List<Record> batch = SampleTables.events(random, nextId, count, Workload.FIRST_DAY.plusDays(day),
                Duration.ofHours(23), CATEGORIES, PAYLOAD_CHARS);
        nextId += count;
        batch.forEach(row -> remember(row, day));
        return batch;
    }

    /**
     * The next MERGE: new versions of {@code updates} distinct random ids of the day, and {@code inserts} new rows
     * in it. Taken as the expected state at once: every copy must end up holding it.
     */
    public Change merge(int day, int updates, int inserts) {
        LongList candidates = idsByDay[day];
        Set<Long> chosen = new LinkedHashSet<>();
        int wanted = (int) Math.min(updates, candidates.size);
        while (chosen.size() < wanted) {
            chosen.add(candidates.values[random.nextInt(candidates.size)]);
        }
        List<Record> written = new ArrayList<>();
        for (long id : chosen) {
            Record version = SampleTables.events(random, id, 1, Workload.FIRST_DAY.plusDays(day)
                    .plusHours(random.nextInt(23)), Duration.ofSeconds(1), CATEGORIES, PAYLOAD_CHARS).get(0);
            rows--;
            hashSum -= hashes[(int) id];
            written.add(version);
            rememberVersion(version);
        }
        written.addAll(insert(day, inserts));
        return new Change(day, Set.copyOf(chosen), List.copyOf(written));
    }

    /** What every copy should hold now. */
    public Fingerprint expected() {
        return new Fingerprint(rows, hashSum);
    }

    public long rows() {
        return rows;
    }

    private void remember(Record row, int day) {
        idsByDay[day].add((Long) row.getField("id"));
        rememberVersion(row);
    }

    private void rememberVersion(Record row) {
        long id = (Long) row.getField("id");
        if (id >= Integer.MAX_VALUE) {
            throw new IllegalStateException("CdcRows keeps ids below 2^31, got " + id);
        }
        if (id >= hashes.length) {
            hashes = Arrays.copyOf(hashes, (int) Math.min(Integer.MAX_VALUE - 8L, Math.max(id + 1, hashes.length * 2L)));
        }
        long hash = Fingerprints.hashRow(STRUCT, row);
        hashes[(int) id] = hash;
        rows++;
        hashSum += hash;
    }

    /** A growable array of longs: millions of ids without a boxed object each. */
    private static final class LongList {
        private long[] values = new long[1024];
        private int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }
    }
}
