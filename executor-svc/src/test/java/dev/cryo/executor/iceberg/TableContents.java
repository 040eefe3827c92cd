package dev.cryo.executor.iceberg;

import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SupportsPrefixOperations;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/** What orphan-removal tests put into a table and read back from its storage. */
final class TableContents {

    private TableContents() {
    }

    /** {@code commits} appends of 40 rows over three days. */
    static void fill(Table table, int commits, long seed) {
        TableWriter writer = new TableWriter(table);
        Random random = new Random(seed);
        for (int i = 0; i < commits; i++) {
            writer.append(SampleTables.events(random, seed * 100_000 + i * 1000L, 40, TestTables.START, Duration.ofDays(3), 4, 30));
        }
        table.refresh();
    }

    /** Files no snapshot references, as a failed job leaves them, in the data and metadata folders. */
    static List<String> plant(Table table, int count) {
        List<String> planted = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String location = table.location() + (i % 2 == 0 ? "/data/" : "/metadata/") + "orphan-" + UUID.randomUUID()
                    + (i % 2 == 0 ? ".parquet" : ".avro");
            try (PositionOutputStream out = table.io().newOutputFile(location).create()) {
                out.write(("orphan " + i).getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            planted.add(location);
        }
        return planted;
    }

    /** Every file the table's storage lists under {@code prefix}. */
    static List<String> listed(Table table, String prefix) {
        return StreamSupport.stream(((SupportsPrefixOperations) table.io()).listPrefix(prefix).spliterator(), false)
                .map(FileInfo::location).collect(Collectors.toList());
    }
}
