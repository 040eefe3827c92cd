package dev.cryo.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Renders a kustomization with {@code kubectl kustomize}, the command the acceptance names. kubectl
 * 1.27 or later is needed (kustomize v5: components, labels); on Debian, the java-maven machine
 * image ships kubectl (Google's package {@code kubectl}); Debian's own {@code kubernetes-client}
 * package is 1.20 and too old for components.
 */
public final class Kustomize {

    private static final long TIMEOUT_SECONDS = 120;

    private Kustomize() {
    }

    /** The rendered YAML stream of the kustomization in a folder. */
    public static String render(Path kustomization) {
        ProcessBuilder command = new ProcessBuilder("kubectl", "kustomize", kustomization.toString());
        Process process;
        try {
            process = command.start();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot render " + kustomization + ": kubectl is not on the PATH ("
                    + e.getMessage() + "). Install kubectl 1.27 or later (kustomize v5)", e);
        }
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> errors = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("Cannot render " + kustomization + ": kubectl kustomize took more than "
                        + TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("Cannot render " + kustomization + ": kubectl kustomize exited with "
                        + process.exitValue() + ": " + errors.join().strip());
            }
            return output.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("Cannot render " + kustomization + ": interrupted", e);
        }
    }

    private static String read(java.io.InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
