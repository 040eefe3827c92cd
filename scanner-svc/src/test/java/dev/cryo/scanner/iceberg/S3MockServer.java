package dev.cryo.scanner.iceberg;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Adobe S3Mock (an S3-compatible server from Maven Central, copied to target/test-servers by the
 * build) in a process of its own, so that its Spring Boot classpath never meets the scanner's.
 */
final class S3MockServer implements AutoCloseable {

    static final String BUCKET = "warehouse";

    private final Process process;
    private final int port;

    S3MockServer(Path root) throws IOException, InterruptedException {
        Path jar = Path.of("target", "test-servers", "s3mock-exec.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException("Cannot start S3Mock: " + jar.toAbsolutePath()
                    + " is missing; the build copies it in process-test-resources (run the tests through Maven)");
        }
        port = freePort();
        int httpsPort = freePort();
        Path log = Files.createTempFile("s3mock", ".log");
        process = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", jar.toString(),
                "--com.adobe.testing.s3mock.httpPort=" + port, "--server.port=" + httpsPort,
                "--server.address=127.0.0.1",
                "--com.adobe.testing.s3mock.domain.initialBuckets=" + BUCKET,
                "--com.adobe.testing.s3mock.domain.root=" + root.toAbsolutePath(),
                "--spring.main.banner-mode=off", "--logging.level.root=WARN"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Instant deadline = Instant.now().plus(Duration.ofSeconds(120));
        while (!accepts(port)) {
            if (!process.isAlive() || Instant.now().isAfter(deadline)) {
                process.destroyForcibly();
                throw new IllegalStateException("S3Mock did not start on port " + port + ": " + Files.readString(log));
            }
            process.waitFor(200, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
