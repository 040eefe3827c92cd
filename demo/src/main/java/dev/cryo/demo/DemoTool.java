package dev.cryo.demo;

import dev.cryo.demo.fleet.DemoTable;
import dev.cryo.demo.fleet.Fleet;
import dev.cryo.demo.fleet.FleetBuilder;
import dev.cryo.demo.kafka.FirstStartOffsets;
import dev.cryo.demo.live.LiveWriters;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.reporter.KafkaCommitReporter;
import dev.cryo.contracts.kafka.KafkaClientSecurity;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * The demo's tool, run by {@code ./cryo demo}: creates the fleet, runs the live writers, and
 * sets the first-start offsets of Cryo's consumer groups.
 */
@Command(name = "cryo-demo", mixinStandardHelpOptions = true,
        description = "The demo fleet of ./cryo demo and its live writers.",
        subcommands = {DemoTool.Create.class, DemoTool.Write.class, DemoTool.FirstStart.class, DemoTool.ListTables.class})
public final class DemoTool {

    public static void main(String[] args) {
        quietLibraries();
        System.exit(commandLine().execute(args));
    }

    /** The tool's command line, with its exit codes: 0 done, 2 error. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new DemoTool());
        commandLine.setExecutionExceptionHandler((error, command, parsed) -> {
            command.getErr().println("error: " + (error.getMessage() == null ? error.toString() : error.getMessage()));
            command.getErr().flush();
            return 2;
        });
        return commandLine;
    }

    /** Iceberg, Hadoop and Kafka say a lot at INFO; the tool's own lines are what matters. */
    static void quietLibraries() {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", System.getProperty("demo.log.level", "warn"));
        System.setProperty("org.slf4j.simpleLogger.log.dev.cryo", System.getProperty("demo.log.level.cryo", "info"));
        // Hadoop's native library is never there and never needed for local files
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.hadoop.util.NativeCodeLoader", "error");
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSZ");
        System.setProperty("org.slf4j.simpleLogger.showThreadName", "false");
        System.setProperty("org.slf4j.simpleLogger.showShortLogName", "true");
    }

    @Command(name = "create", description = "Creates the demo tables that do not exist yet (idempotent).")
    static final class Create implements Callable<Integer> {
        @Mixin
        CatalogOptions catalog;
        @Option(names = "--parallelism", defaultValue = "2", description = "Tables built at the same time (default: ${DEFAULT-VALUE})")
        int parallelism;
        @Option(names = "--table", description = "Only this table of the fleet (repeat for several; default: all)")
        List<String> only;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            Instant started = Instant.now();
            List<DemoTable> tables = only == null ? Fleet.tables()
                    : Fleet.tables().stream().filter(table -> only.contains(table.name())).toList();
            if (only != null && tables.size() != only.size()) {
                throw new IllegalArgumentException("Cannot create " + only + ": the fleet's tables are "
                        + Fleet.tables().stream().map(DemoTable::name).toList());
            }
            try (CatalogRegistry registry = CatalogRegistry.create(Map.of(catalog.name(), catalog.properties()))) {
                List<FleetBuilder.Built> report = new FleetBuilder(registry.catalog(catalog.name()), catalog.name(),
                        Namespace.of(catalog.namespace()), Clock.systemUTC(), out, parallelism).build(tables);
                long created = report.stream().filter(built -> built.outcome() != FleetBuilder.Outcome.EXISTED).count();
                long bytes = report.stream().mapToLong(FleetBuilder.Built::dataBytes).sum();
                out.printf("    %d tables in %s.%s (%d created, %d already there), %.0f MiB of data, %.1f s%n",
                        report.size(), catalog.name(), catalog.namespace(), created, report.size() - created,
                        bytes / (1024.0 * 1024.0), Duration.between(started, Instant.now()).toMillis() / 1000.0);
            }
            return 0;
        }
    }

    @Command(name = "write", description = "Keeps writing to the live demo tables until stopped (SIGTERM).")
    static final class Write implements Callable<Integer> {
        @Mixin
        CatalogOptions catalog;
        @Option(names = "--kafka", defaultValue = "127.0.0.1:9092",
                description = "Kafka bootstrap servers for the commit reporter (default: ${DEFAULT-VALUE})")
        String kafka;
        @Option(names = "--streaming-interval", defaultValue = "PT5S", description = "Pace of the streaming appends (default: ${DEFAULT-VALUE})")
        Duration streaming;
        @Option(names = "--cdc-interval", defaultValue = "PT6S", description = "Pace of the CDC upserts (default: ${DEFAULT-VALUE})")
        Duration cdc;
        @Option(names = "--batch-interval", defaultValue = "PT1M", description = "Pace of the batch appends (default: ${DEFAULT-VALUE})")
        Duration batch;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            Map<String, String> properties = new HashMap<>(catalog.properties());
            // every commit of these writers becomes a TableChanged, as in a writer application with Cryo's jar
            properties.put(CatalogProperties.METRICS_REPORTER_IMPL, KafkaCommitReporter.class.getName());
            properties.put(KafkaCommitReporter.BOOTSTRAP_SERVERS, kafka);
            properties.put(KafkaCommitReporter.CATALOG, catalog.name());
            // as the reporter's principal (cryo-reporter, CRYO_KAFKA_USER/PASSWORD), which may write table changes only
            properties.putAll(KafkaCommitReporter.producerProperties(KafkaClientSecurity.fromEnvironment().properties()));
            CountDownLatch stopped = new CountDownLatch(1);
            try (CatalogRegistry registry = CatalogRegistry.create(Map.of(catalog.name(), properties));
                 LiveWriters writers = new LiveWriters(registry.catalog(catalog.name()), Namespace.of(catalog.namespace()),
                         Clock.systemUTC())) {
                List<String> started = writers.start(Fleet.liveTables(), new LiveWriters.Pace(streaming, cdc, batch));
                started.forEach(line -> out.println("writing " + catalog.name() + "." + line));
                out.flush();
                Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "demo-shutdown"));
                stopped.await();
            }
            return 0;
        }
    }

    @Command(name = "first-start", description = "Starts consumer groups that never ran at the end of Cryo's topics.")
    static final class FirstStart implements Callable<Integer> {
        @Option(names = "--kafka", defaultValue = "127.0.0.1:9092", description = "Kafka bootstrap servers (default: ${DEFAULT-VALUE})")
        String kafka;
        @Option(names = "--group", required = true, description = "A consumer group (repeat for several)")
        List<String> groups;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (Admin admin = FirstStartOffsets.connect(kafka)) {
                FirstStartOffsets offsets = new FirstStartOffsets(admin, Duration.ofSeconds(30));
                List<FirstStartOffsets.GroupStart> starts = offsets.startAtEnd(groups, offsets.cryoTopics());
                long fresh = starts.stream().filter(start -> !start.alreadyStarted()).count();
                long skipped = starts.stream().mapToLong(FirstStartOffsets.GroupStart::recordsSkipped).max().orElse(0);
                if (fresh > 0 && skipped > 0) {
                    out.printf("%d consumer group(s) start for the first time; Kafka already holds %d record(s) on Cryo's "
                            + "topics from before, which they skip%n", fresh, skipped);
                }
            }
            return 0;
        }
    }

    @Command(name = "list", description = "Lists the demo tables with their stories.")
    static final class ListTables implements Callable<Integer> {
        @Option(names = "--live", description = "Only the tables a live writer changes")
        boolean live;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            (live ? Fleet.liveTables() : Fleet.tables()).forEach(table -> out.printf("%s\t%s%n", table.name(), table.story()));
            return 0;
        }
    }
}
