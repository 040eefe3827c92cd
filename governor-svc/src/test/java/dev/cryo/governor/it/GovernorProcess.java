package dev.cryo.governor.it;

import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One governor started from the packaged application, as operators run it. */
final class GovernorProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path log;

    private GovernorProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts {@code java -jar quarkus-run.jar} with the given system properties on a free port. */
    static GovernorProcess start(Path application, String name, Map<String, String> properties) throws IOException {
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-Dquarkus.http.port=" + port));
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-jar");
        command.add(application.toString());
        Path log = application.getParent().getParent().resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command);
        // as the governor's own principal: its ACLs are what this test runs under
        builder.environment().putAll(dev.cryo.testsupport.Infrastructure.kafkaServiceEnvironment("governor"));
        Process process = builder
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .directory(new File(application.getParent().toString()))
                .start();
        return new GovernorProcess(process, port, log);
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    Path log() {
        return log;
    }

    /** Waits until the process answers its readiness check, or fails with where its log is. */
    void awaitReady(Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("governor on port " + port + " exited with " + process.exitValue()
                        + "; see " + log);
            }
            if (ready()) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(250);
        }
        throw new IllegalStateException("governor on port " + port + " was not ready after " + timeout + "; see " + log);
    }

    private boolean ready() {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(baseUrl() + "/q/health/ready").toURL()
                    .openConnection();
            connection.setConnectTimeout(1000);
            connection.setReadTimeout(2000);
            return connection.getResponseCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops the process (SIGTERM, then SIGKILL after 15 s). */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
