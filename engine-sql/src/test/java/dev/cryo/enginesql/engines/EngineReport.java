package dev.cryo.enginesql.engines;

import dev.cryo.contracts.Engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Appends what each engine did to target/engine-report.txt: the figures the README quotes. */
final class EngineReport {

    private static final Path FILE = Path.of("target", "engine-report.txt");

    static synchronized void record(Engine engine, String line) {
        try {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, engine.id() + ": " + line + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private EngineReport() {
    }
}
