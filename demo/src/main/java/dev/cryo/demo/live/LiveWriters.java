package dev.cryo.demo.live;

import dev.cryo.demo.fleet.DemoTable;
import dev.cryo.demo.fleet.DemoTable.LiveWriterKind;
import dev.cryo.demo.fleet.Fleet;
import dev.cryo.demo.fleet.TableData;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * The writers that keep the live demo tables changing after creation, each on its own pace,
 * one commit at a time (one thread for all: a laptop runs Cryo beside it). They commit through
 * a catalog whose commit reporter announces every commit on Kafka, as a writer application
 * with Cryo's commit-reporter jar does.
 *
 * <p>A commit that loses against a maintenance job (Iceberg retries, then gives up) or a
 * position delete whose data file a job has just rewritten is logged and skipped: the next
 * round writes again. Nothing is retried in a tight loop.
 */
public final class LiveWriters implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LiveWriters.class);

    /** Rows each streaming append writes. */
    static final int STREAMING_ROWS = 40;
    /** Rows each upsert round changes (all in one bucket: one equality delete file per round). */
    static final int UPSERT_ROWS = 15;
    /** Every this many upsert rounds, a few rows are deleted by position. */
    static final int POSITION_DELETE_EVERY = 5;
    /** Rows each batch append writes. */
    static final int BATCH_ROWS = 4_000;

    /** How often each kind of writer commits. */
    public record Pace(Duration streaming, Duration cdc, Duration batch) {
        public static final Pace DEMO = new Pace(Duration.ofSeconds(5), Duration.ofSeconds(6), Duration.ofMinutes(1));

        public Pace {
            requireNonNull(streaming, "streaming is null");
            requireNonNull(cdc, "cdc is null");
            requireNonNull(batch, "batch is null");
        }

        Duration of(LiveWriterKind kind) {
            return switch (kind) {
                case STREAMING_APPENDS -> streaming;
                case CDC_UPSERTS -> cdc;
                case BATCH_APPENDS -> batch;
            };
        }
    }

    private final Catalog catalog;
    private final Namespace namespace;
    private final Clock clock;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "demo-live-writers");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, AtomicLong> commits = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> skipped = new ConcurrentHashMap<>();
    private final Map<LiveWriterKind, Function<TableData, String>> rounds = new EnumMap<>(LiveWriterKind.class);
    private final AtomicLong upsertRounds = new AtomicLong();

    public LiveWriters(Catalog catalog, Namespace namespace, Clock clock) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.namespace = requireNonNull(namespace, "namespace is null");
        this.clock = requireNonNull(clock, "clock is null");
        rounds.put(LiveWriterKind.STREAMING_APPENDS, this::streamingAppend);
        rounds.put(LiveWriterKind.CDC_UPSERTS, this::upsertRound);
        rounds.put(LiveWriterKind.BATCH_APPENDS, this::batchAppend);
    }

    /** Starts a writer for each live table of the list; returns the tables being written. */
    public List<String> start(List<DemoTable> tables, Pace pace) {
        List<String> started = new ArrayList<>();
        // ids far above the fleet's own, so appended rows never collide with created ones
        long firstId = clock.millis() * 1000;
        for (DemoTable definition : tables) {
            if (definition.liveWriter().isEmpty()) {
                continue;
            }
            LiveWriterKind kind = definition.liveWriter().get();
            TableIdentifier identifier = TableIdentifier.of(namespace, definition.name());
            Table table = catalog.loadTable(identifier);
            TableData data = new TableData(table, new Random(), clock, firstId);
            firstId += 1_000_000_000L;
            long periodMillis = pace.of(kind).toMillis();
            scheduler.scheduleWithFixedDelay(() -> round(identifier, kind, data), periodMillis, periodMillis,
                    TimeUnit.MILLISECONDS);
            started.add(identifier + " (" + kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " every "
                    + pace.of(kind).toSeconds() + " s)");
        }
        scheduler.scheduleWithFixedDelay(this::summary, 60, 60, TimeUnit.SECONDS);
        return started;
    }

    /** Commits made so far, by table name. */
    public Map<String, Long> commits() {
        Map<String, Long> counts = new java.util.TreeMap<>();
        commits.forEach((table, count) -> counts.put(table, count.get()));
        return counts;
    }

    private void round(TableIdentifier identifier, LiveWriterKind kind, TableData data) {
        String table = identifier.name();
        try {
            String what = rounds.get(kind).apply(data);
            commits.computeIfAbsent(table, ignored -> new AtomicLong()).incrementAndGet();
            LOG.debug("{}: {}", identifier, what);
        } catch (RuntimeException e) {
            // a lost race with a maintenance job, or the table is gone: say so and write again next round
            skipped.computeIfAbsent(table, ignored -> new AtomicLong()).incrementAndGet();
            LOG.warn("{}: commit skipped this round: {}", identifier, e.toString());
        }
    }

    private String streamingAppend(TableData data) {
        OffsetDateTime now = data.now();
        data.append(data.rows(STREAMING_ROWS, now.minusSeconds(5), Duration.ofSeconds(5)));
        return "appended " + STREAMING_ROWS + " rows";
    }

    private String upsertRound(TableData data) {
        long round = upsertRounds.incrementAndGet();
        if (round % POSITION_DELETE_EVERY == 0) {
            List<DataFile> large = data.dataFiles().stream().filter(file -> file.recordCount() > 1000).toList();
            if (!large.isEmpty()) {
                DataFile file = large.get(data.random().nextInt(large.size()));
                long[] positions = data.random().longs(10, 0, file.recordCount()).distinct().sorted().toArray();
                data.deletePositions(file, positions);
                return "deleted " + positions.length + " rows by position";
            }
        }
        int bucket = (int) (round % 4);
        data.upsert(idsInBucket(data.random(), bucket, UPSERT_ROWS), data.now());
        return "upserted " + UPSERT_ROWS + " rows of bucket " + bucket;
    }

    private String batchAppend(TableData data) {
        OffsetDateTime now = data.now();
        data.append(data.rows(BATCH_ROWS, now.minusMinutes(1), Duration.ofMinutes(1)));
        return "appended " + BATCH_ROWS + " rows";
    }

    /** Ids of the CDC table that fall in one bucket of its {@code bucket(4, id)} spec. */
    static Set<Long> idsInBucket(Random random, int bucket, int count) {
        var bucketOf = Transforms.<Long>bucket(4).bind(Types.LongType.get());
        Set<Long> ids = new LinkedHashSet<>();
        while (ids.size() < count) {
            long id = random.nextInt(Fleet.ACCOUNTS_ROWS);
            if (bucketOf.apply(id) == bucket) {
                ids.add(id);
            }
        }
        return ids;
    }

    private void summary() {
        LOG.info("live writers: commits {}, skipped {}", commits(), skipped);
    }

    @Override
    public void close() throws InterruptedException {
        scheduler.shutdown();
        if (!scheduler.awaitTermination(30, TimeUnit.SECONDS)) {
            LOG.warn("live writers: a commit did not finish within 30 s; stopping anyway");
            scheduler.shutdownNow();
        }
        summary();
    }
}
