package dev.cryo.faults;

import dev.cryo.contracts.TableId;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * The scenarios' writer: creates day-partitioned event tables in the local catalog, fills them
 * with many small files, and then appends to the same partitions on a fixed beat while the
 * scenario's fault happens. Its catalog carries the commit reporter, so every commit is also a
 * notification on Kafka, as from a real writer.
 *
 * <p>It keeps a ledger of every row it committed: the table's fingerprint must equal the
 * ledger's at the end. A commit that fails (the catalog's PostgreSQL restarting, say) may still
 * have landed; the writer then looks in the table's history, once the catalog answers again,
 * for the files it added, and books the rows only if they are there.
 */
final class Writer implements AutoCloseable {

    static final OffsetDateTime START = OffsetDateTime.of(2025, 3, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    private final CatalogRegistry catalogs;
    private final Namespace namespace;
    private final int partitions;
    private final Random random = new Random(11);
    private final Map<TableId, Table> tables = new LinkedHashMap<>();
    private final Map<TableId, Map<Long, Record>> ledger = new ConcurrentHashMap<>();
    private final Map<TableId, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicInteger commits = new AtomicInteger();
    private final AtomicInteger uncertainCommits = new AtomicInteger();
    private final AtomicInteger lostCommits = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private ScheduledExecutorService beat;
    private long nextId = 1;
    private int turn;

    /** Files written for a commit whose outcome is not known yet. */
    private record Pending(List<DataFile> files, List<Record> rows, Instant attemptedAt) {
    }

    Writer(Stack stack, String namespace, int partitions) {
        Map<String, String> properties = new HashMap<>(stack.catalogProperties());
        properties.put("metrics-reporter-impl", "dev.cryo.reporter.KafkaCommitReporter");
        properties.put("cryo.reporter.bootstrap-servers", dev.cryo.testsupport.Infrastructure.kafkaBootstrapServers());
        properties.put("cryo.reporter.catalog", Stack.CATALOG);
        properties.put("cryo.reporter.actor", "fault-tests-writer");
        properties.put("cryo.reporter.send-timeout-ms", "2000");
        // as the reporter's principal, whose ACLs allow table changes only
        properties.putAll(dev.cryo.reporter.KafkaCommitReporter.producerProperties(
                dev.cryo.testsupport.Infrastructure.kafkaSecurity("cryo-reporter")));
        this.catalogs = CatalogRegistry.create(Map.of(Stack.CATALOG, properties));
        this.namespace = Namespace.of(namespace);
        this.partitions = partitions;
        SupportsNamespaces catalog = (SupportsNamespaces) catalogs.catalog(Stack.CATALOG);
        if (!catalog.namespaceExists(this.namespace)) {
            catalog.createNamespace(this.namespace);
        }
    }

    /**
     * Creates a table and fills it with {@code appends} commits, each adding one small file of
     * {@code rowsPerFile} rows to every partition.
     */
    TableId create(String name, int appends, int rowsPerFile, int payloadChars) {
        Table table = catalogs.catalog(Stack.CATALOG).createTable(TableIdentifier.of(namespace, name),
                SampleTables.EVENTS, PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of(TableProperties.FORMAT_VERSION, "2"));
        TableId id = TableId.of(Stack.CATALOG, namespace.level(0), name);
        tables.put(id, table);
        ledger.put(id, new ConcurrentHashMap<>());
        TableWriter writer = new TableWriter(table);
        for (int i = 0; i < appends; i++) {
            List<Record> rows = rows(rowsPerFile * partitions, payloadChars);
            writer.append(rows);
            book(id, rows);
        }
        return id;
    }

    List<TableId> tables() {
        return List.copyOf(tables.keySet());
    }

    Table table(TableId id) {
        return catalogs.load(id);
    }

    /** Starts appending: one commit every {@code tick}, to the tables in turn. */
    void start(Duration tick) {
        beat = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "fault-writer");
            thread.setDaemon(true);
            return thread;
        });
        beat.scheduleWithFixedDelay(this::tick, 0, tick.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops appending, settles any commit whose outcome was open, and fails if the writer broke. */
    @Override
    public void close() {
        try {
            stop();
        } finally {
            try {
                catalogs.close();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("Cannot close the writer's catalog", e);
            }
        }
    }

    void stop() {
        if (beat != null) {
            beat.shutdown();
            try {
                if (!beat.awaitTermination(2, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("Cannot stop the writer: a commit did not end within 2 minutes");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            beat = null;
            for (TableId id : Set.copyOf(pending.keySet())) {
                settle(id);
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("The writer failed: " + failure.get().getMessage(), failure.get());
        }
        if (!pending.isEmpty()) {
            throw new IllegalStateException("Cannot tell whether the writer's last commits to " + pending.keySet()
                    + " landed: the catalog does not answer");
        }
    }

    /** The fingerprint of every row the writer committed to the table. */
    Fingerprint expected(TableId id) {
        return Fingerprints.of(SampleTables.EVENTS, ledger.get(id).values());
    }

    int commits() {
        return commits.get();
    }

    /** Commits that failed and were then found in the table's history (so their rows count). */
    int uncertainCommits() {
        return uncertainCommits.get();
    }

    /** Commits that failed and were not in the table's history (their files are orphans now). */
    int lostCommits() {
        return lostCommits.get();
    }

    private void tick() {
        try {
            List<TableId> ids = tables();
            TableId id = ids.get(turn++ % ids.size());
            if (pending.containsKey(id) && !settle(id)) {
                return;
            }
            List<Record> rows = rows(partitions * 2, 40);
            Table table = tables.get(id);
            List<DataFile> files = new TableWriter(table).writeDataFiles(rows);
            Instant attemptedAt = Instant.now();
            try {
                table.refresh();
                AppendFiles append = table.newAppend();
                files.forEach(append::appendFile);
                append.commit();
            } catch (RuntimeException e) {
                // The catalog's database may have taken the commit before it went away: decide later, from the history.
                pending.put(id, new Pending(files, rows, attemptedAt));
                return;
            }
            book(id, rows);
            commits.incrementAndGet();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
            throw e;
        }
    }

    /** Looks for a pending commit's files in the table's history; false while the catalog cannot say. */
    private boolean settle(TableId id) {
        Pending open = pending.get(id);
        Table table = tables.get(id);
        try {
            table.refresh();
        } catch (RuntimeException e) {
            return false;
        }
        Set<String> written = open.files().stream().map(DataFile::location).collect(Collectors.toSet());
        boolean landed = false;
        long since = open.attemptedAt().minusSeconds(60).toEpochMilli();
        for (Snapshot snapshot : table.snapshots()) {
            if (snapshot.timestampMillis() < since) {
                continue;
            }
            for (DataFile file : snapshot.addedDataFiles(table.io())) {
                if (written.contains(file.location())) {
                    landed = true;
                    break;
                }
            }
        }
        pending.remove(id);
        if (landed) {
            book(id, open.rows());
            commits.incrementAndGet();
            uncertainCommits.incrementAndGet();
        } else {
            lostCommits.incrementAndGet();
        }
        return true;
    }

    private void book(TableId id, List<Record> rows) {
        Map<Long, Record> rowsById = ledger.get(id);
        rows.forEach(row -> rowsById.put((Long) row.getField("id"), row));
    }

    private synchronized List<Record> rows(int count, int payloadChars) {
        List<Record> rows = SampleTables.events(random, nextId, count, START, Duration.ofDays(partitions), 3,
                payloadChars);
        nextId += count;
        return new ArrayList<>(rows);
    }
}
