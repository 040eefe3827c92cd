package dev.cryo.scanner.app;

import dev.cryo.contracts.TableId;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import org.apache.iceberg.Table;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * A writer application in its own JVM, as writers are: its catalog has the commit reporter
 * ({@code metrics-reporter-impl}); it appends rows to one table and prints the snapshot id and
 * the time the commit returned.
 */
public final class ReportingWriter {

    /** Arguments: the table id, then catalog properties as {@code key=value}. */
    public static void main(String[] args) throws IOException {
        TableId id = TableId.parse(args[0]);
        Map<String, String> properties = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            int equals = args[i].indexOf('=');
            properties.put(args[i].substring(0, equals), args[i].substring(equals + 1));
        }
        try (CatalogRegistry registry = CatalogRegistry.create(Map.of(id.catalog(), properties))) {
            Table table = registry.load(id);
            new TableWriter(table).append(SampleTables.events(new Random(4), 0, 10,
                    OffsetDateTime.of(2026, 11, 1, 0, 0, 0, 0, ZoneOffset.UTC), Duration.ofDays(1), 2, 10));
            long committedAt = System.currentTimeMillis();
            table.refresh();
            System.out.println("COMMITTED " + table.currentSnapshot().snapshotId() + " " + committedAt);
        }
    }

    /** Runs the writer in a new JVM on this test's class path; returns {snapshot id, commit time in ms}. */
    static long[] run(TableId table, Map<String, String> catalogProperties) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), ReportingWriter.class.getName(), table.toString()));
        catalogProperties.forEach((key, value) -> command.add(key + "=" + value));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> output = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                output.add(line);
            }
        }
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException("The writer failed: " + String.join("\n", output));
        }
        String committed = output.stream().filter(line -> line.startsWith("COMMITTED ")).findFirst()
                .orElseThrow(() -> new IllegalStateException("The writer printed no commit: " + String.join("\n", output)));
        String[] parts = committed.split(" ");
        return new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2])};
    }

    private ReportingWriter() {
    }
}
