package dev.cryo.testsupport;

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
 * build of each module that uses it) in a process of its own, so that its Spring Boot classpath
 * never meets the service's. It serves one bucket, {@link #BUCKET}.
 */
public final class S3MockServer implements AutoCloseable {

    public static final String BUCKET = "warehouse";
    /** A second, empty bucket: for a table whose location is a bucket's root. */
    public static final String BARE_BUCKET = "bare";

    private final Process process;
    private final int port;

    public S3MockServer(Path root) throws IOException, InterruptedException {
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
                "--com.adobe.testing.s3mock.domain.initialBuckets=" + BUCKET + "," + BARE_BUCKET,
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

    public String endpoint() {
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

    /**
     * The Iceberg catalog properties of an S3FileIO warehouse in this server's bucket, under
     * {@code s3://warehouse/<prefix>}. S3Mock does not speak the AWS SDK's newer default checksum
     * trailers, so the JVM-wide checksum settings are set to {@code WHEN_REQUIRED} here.
     */
    public java.util.Map<String, String> warehouseProperties(String prefix) {
        System.setProperty("aws.requestChecksumCalculation", "WHEN_REQUIRED");
        System.setProperty("aws.responseChecksumValidation", "WHEN_REQUIRED");
        java.util.Map<String, String> properties = new java.util.HashMap<>();
        properties.put("warehouse", "s3://" + BUCKET + "/" + prefix);
        properties.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
        properties.put("s3.endpoint", endpoint());
        properties.put("s3.path-style-access", "true");
        properties.put("s3.access-key-id", "cryo");
        properties.put("s3.secret-access-key", "cryo-secret");
        properties.put("client.region", "us-east-1");
        properties.put("http-client.type", "urlconnection");
        return properties;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
