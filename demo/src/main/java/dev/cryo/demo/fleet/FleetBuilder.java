package dev.cryo.demo.fleet;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static java.util.Objects.requireNonNull;

/**
 * Creates the demo tables that do not exist yet, and only those: a second {@code ./cryo demo}
 * finds them complete and leaves them alone. A table whose recipe did not finish (the process
 * was stopped half-way) lacks {@link Fleet#COMPLETE_PROPERTY} and is dropped and created again.
 */
public final class FleetBuilder {

    /** What happened to one table. */
    public enum Outcome { CREATED, EXISTED, RECREATED }

    /** One line of the report. */
    public record Built(TableIdentifier table, Outcome outcome, int dataFiles, long dataBytes, Duration took) {
    }

    private final Catalog catalog;
    private final String catalogName;
    private final Namespace namespace;
    private final Clock clock;
    private final PrintWriter out;
    private final int parallelism;

    /**
     * @param parallelism tables built at the same time (each table's commits stay in order)
     */
    public FleetBuilder(Catalog catalog, String catalogName, Namespace namespace, Clock clock, PrintWriter out,
                        int parallelism) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        this.namespace = requireNonNull(namespace, "namespace is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.out = requireNonNull(out, "out is null");
        if (parallelism < 1) {
            throw new IllegalArgumentException("Cannot build the demo fleet: parallelism must be at least 1, got " + parallelism);
        }
        this.parallelism = parallelism;
    }

    public List<Built> build(List<DemoTable> tables) {
        if (catalog instanceof SupportsNamespaces namespaces && !namespaces.namespaceExists(namespace)) {
            try {
                namespaces.createNamespace(namespace);
            } catch (AlreadyExistsException e) {
                // another process created it first: the same outcome
            }
        }
        ExecutorService workers = Executors.newFixedThreadPool(parallelism);
        try {
            List<Future<Built>> futures = new ArrayList<>();
            for (DemoTable table : tables) {
                futures.add(workers.submit(() -> {
                    Built built = build(table);
                    print(built, table);
                    return built;
                }));
            }
            List<Built> report = new ArrayList<>();
            for (Future<Built> future : futures) {
                report.add(await(future));
            }
            return report;
        } finally {
            workers.shutdownNow();
        }
    }

    private synchronized void print(Built built, DemoTable table) {
        out.printf("    %-40s %-9s %4d files %6.1f MiB %6.1f s   %s%n", catalogName + "." + built.table(),
                built.outcome().name().toLowerCase(Locale.ROOT), built.dataFiles(),
                built.dataBytes() / (1024.0 * 1024.0), built.took().toMillis() / 1000.0, table.story());
        out.flush();
    }

    private static Built await(Future<Built> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Cannot build the demo fleet: interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("Cannot build the demo fleet: " + cause.getMessage(), cause);
        }
    }

    private Built build(DemoTable definition) {
        Instant started = clock.instant();
        TableIdentifier identifier = TableIdentifier.of(namespace, definition.name());
        Outcome outcome = Outcome.CREATED;
        if (catalog.tableExists(identifier)) {
            Table existing = catalog.loadTable(identifier);
            if ("true".equals(existing.properties().get(Fleet.COMPLETE_PROPERTY))) {
                return report(identifier, existing, Outcome.EXISTED, started);
            }
            catalog.dropTable(identifier, true);
            outcome = Outcome.RECREATED;
        }
        Map<String, String> properties = new HashMap<>(definition.properties());
        properties.put(TableProperties.FORMAT_VERSION, String.valueOf(definition.formatVersion()));
        Table table = catalog.buildTable(identifier, definition.schema())
                .withPartitionSpec(definition.spec())
                .withProperties(properties)
                .create();
        // a seed per table: the same fleet every time, different data in every table
        TableData data = new TableData(table, new Random(definition.name().hashCode()), clock, 0);
        definition.recipe().fill(table, data);
        table.updateProperties().set(Fleet.COMPLETE_PROPERTY, "true").commit();
        return report(identifier, table, outcome, started);
    }

    private Built report(TableIdentifier identifier, Table table, Outcome outcome, Instant started) {
        table.refresh();
        List<DataFile> files = new TableData(table, new Random(0), clock, 0).dataFiles();
        long bytes = files.stream().mapToLong(DataFile::fileSizeInBytes).sum();
        return new Built(identifier, outcome, files.size(), bytes, Duration.between(started, clock.instant()));
    }
}
