package dev.cryo.audit;

import dev.cryo.audit.persistence.AuditStore;
import dev.cryo.contracts.TableId;
import io.quarkus.logging.Log;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An export of 100 000 rows streams: the test reads it as a stream, counting lines and bytes, and
 * measures the heap (after a full collection) before and while the export runs, in the same JVM as
 * the service.
 */
@QuarkusTest
class ExportTest {

    private static final int ROWS = 100_000;
    private static final int BATCH = 1_000;
    private static final long MEBIBYTE = 1024 * 1024;

    @Inject
    AuditStore store;

    @TestHTTPResource("/api/v1/audit/export")
    URL export;

    @Test
    void anExportOfOneHundredThousandRowsStreamsInConstantMemory() throws Exception {
        TableId table = SampleEvents.uniqueTable("export");
        Instant insertStart = Instant.now();
        for (int offset = 0; offset < ROWS; offset += BATCH) {
            store.append(BulkRecords.changes(table, offset, BATCH));
        }
        long insertMillis = Duration.between(insertStart, Instant.now()).toMillis();
        Log.infof("ExportTest: appended %d rows through AuditStore.append in %d ms (%d rows/s)", ROWS, insertMillis,
                ROWS * 1000L / Math.max(1, insertMillis));

        long baseline = usedHeapAfterGc();
        long peak = baseline;
        long lines = 0;
        long bytes = 0;
        Instant exportStart = Instant.now();
        HttpResponse<InputStream> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(export + "?format=jsonl&table=" + table)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                .startsWith("application/x-ndjson"));
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines++;
                bytes += line.length() + 1;
                if (lines == 1) {
                    assertThat(line).startsWith("{\"id\":").contains("\"table\":\"" + table + "\"");
                }
                if (lines % 20_000 == 0) {
                    peak = Math.max(peak, usedHeapAfterGc());
                }
            }
        }
        long exportMillis = Duration.between(exportStart, Instant.now()).toMillis();
        long growth = peak - baseline;
        Log.infof("ExportTest: exported %d rows (%d MiB) in %d ms; heap after GC: baseline %d MiB, peak %d MiB (+%d MiB)",
                lines, bytes / MEBIBYTE, exportMillis, baseline / MEBIBYTE, peak / MEBIBYTE, growth / MEBIBYTE);

        assertThat(lines).isEqualTo(ROWS);
        assertThat(bytes).isGreaterThan(80 * MEBIBYTE);
        // Holding the rows would need more than the export's size; streaming needs a few fetches' worth.
        assertThat(growth).isLessThan(32 * MEBIBYTE);
    }

    @Test
    void csvExportsHaveAHeaderLineAndOneLinePerRow() throws Exception {
        TableId table = SampleEvents.uniqueTable("export_csv");
        store.append(BulkRecords.changes(table, 0, 250));

        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(export + "?format=csv&table=" + table)).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/csv"));
        assertThat(response.headers().firstValue("Content-Disposition")).hasValueSatisfying(value -> assertThat(value)
                .startsWith("attachment; filename=\"cryo-audit-").endsWith(".csv\""));
        String[] lines = response.body().split("\r\n");
        assertThat(lines).hasSize(251);
        assertThat(lines[0]).startsWith("id,recorded_at,event_time,event_id,kind,event_type");
        assertThat(lines[1]).contains(table.toString());
    }

    private static long usedHeapAfterGc() {
        System.gc();
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
