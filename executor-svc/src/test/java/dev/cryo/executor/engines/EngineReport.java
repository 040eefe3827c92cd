package dev.cryo.executor.engines;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.event.OperationFinished;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

/** target/engine-report.txt: what each engine job of {@link EngineJobTest} ran, for the reader of a test run. */
final class EngineReport {

    private static final Path REPORT = Path.of("target", "engine-report.txt");

    private EngineReport() {
    }

    /** Appends the engine's steps with their engines, query ids and times to target/engine-report.txt. */
    static void append(Engine engine, Duration took, List<OperationFinished> steps) {
        StringBuilder text = new StringBuilder("job on " + engine.id() + ": " + took.toMillis() + " ms from JobAdmitted to"
                + " JobFinished\n");
        for (OperationFinished step : steps) {
            text.append("  ").append(step.operation().id()).append(step.chunkIndex() == null ? "" : ":" + step.chunkIndex())
                    .append(" on ").append(step.engine().id()).append(" ").append(step.status().id()).append(" in ")
                    .append(step.duration().toMillis()).append(" ms, files ").append(step.before().dataFiles())
                    .append(" -> ").append(step.after().dataFiles()).append(", delete files ")
                    .append(step.before().deleteFiles()).append(" -> ").append(step.after().deleteFiles())
                    .append(", query ").append(step.queryId())
                    .append(step.routedReason() == null ? "" : ", " + step.routedReason()).append('\n');
        }
        try {
            Files.createDirectories(REPORT.getParent());
            Files.writeString(REPORT, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
