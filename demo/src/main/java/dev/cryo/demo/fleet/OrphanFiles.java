package dev.cryo.demo.fleet;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.data.Record;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Orphan files as real tables collect them: Parquet data files that a writer wrote and never
 * committed (a failed job, a killed executor). They sit under the table's data folder, no
 * snapshot references them, and their modification time is set back so that they are older
 * than the orphan age floor (3 days by default) — younger files could still belong to a commit
 * in flight and are never counted or removed.
 */
final class OrphanFiles {

    static List<String> plant(TableData data, int files, int rowsPerFile, Duration age) {
        List<String> planted = new ArrayList<>();
        FileTime modified = FileTime.from(data.now().toInstant().minus(age));
        for (int i = 0; i < files; i++) {
            // the first six hours of a day, so that each orphan is one file of one day partition at
            // any time of day (a window from "now" crossed midnight after 18:00 and made two)
            OffsetDateTime day = data.now().truncatedTo(ChronoUnit.DAYS).minusDays(2 + i % 3);
            List<Record> rows = data.rows(rowsPerFile, day, Duration.ofHours(6));
            for (DataFile file : data.writer().writeDataFiles(rows)) {
                Path path = localPath(file.location());
                try {
                    Files.setLastModifiedTime(path, modified);
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot age orphan file " + path + ": " + e.getMessage(), e);
                }
                planted.add(file.location());
            }
        }
        return planted;
    }

    private static Path localPath(String location) {
        URI uri = URI.create(location.startsWith("file:") ? location : "file://" + location);
        if (!"file".equals(uri.getScheme())) {
            throw new IllegalArgumentException("Cannot plant orphan files at " + location + ": the demo warehouse must be on local disk");
        }
        return Path.of(uri);
    }

    private OrphanFiles() {
    }
}
