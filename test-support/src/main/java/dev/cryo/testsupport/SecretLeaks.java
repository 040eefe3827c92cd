package dev.cryo.testsupport;

import io.restassured.specification.RequestSpecification;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What every service's secrets test does around its own exercise: start the service with its log
 * in a fresh file, then check that no published record and no line of that log holds a secret.
 */
public final class SecretLeaks {

    private static final Duration LOG_WAIT = Duration.ofSeconds(10);

    private SecretLeaks() {
    }

    /** The service's test configuration plus Quarkus settings that write its whole log to a fresh {@code log}. */
    public static Map<String, String> withLogFile(Path log, Map<String, String> configuration) {
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> all = new HashMap<>(configuration);
        all.put("quarkus.log.file.enabled", "true");
        all.put("quarkus.log.file.path", log.toString());
        return all;
    }

    /** No record's value or header holds any of the secrets. */
    public static void assertNotInRecords(List<ConsumerRecord<String, byte[]>> records, String... secrets) {
        for (ConsumerRecord<String, byte[]> record : records) {
            String value = record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8);
            assertThat(value).as("event on " + record.topic()).doesNotContain(secrets);
            for (Header header : record.headers()) {
                assertThat(new String(header.value(), StandardCharsets.UTF_8)).as("header " + header.key() + " on "
                        + record.topic()).doesNotContain(secrets);
            }
        }
    }

    /** No answer to an anonymous GET of any of the paths (errors included) holds any of the secrets. */
    public static void assertNotInAnswers(List<String> paths, String... secrets) {
        assertNotInAnswers(null, paths, secrets);
    }

    /** The same for a caller with the given Authorization header ({@code null}: none). */
    public static void assertNotInAnswers(String authorization, List<String> paths, String... secrets) {
        for (String path : paths) {
            RequestSpecification request = authorization == null ? given() : given().header("Authorization", authorization);
            assertThat(request.get(path).then().extract().asString()).as("GET " + path).doesNotContain(secrets);
        }
    }

    /**
     * Once the log shows Quarkus' start line (the file handler flushes asynchronously), no line of the
     * whole run holds any of the secrets.
     */
    public static void assertNotInLog(Path log, String... secrets) {
        await("the start line in " + log + " (is quarkus.log.file set, as SecretLeaks.withLogFile does?)")
                .atMost(LOG_WAIT).pollInterval(Duration.ofMillis(200)).until(() -> read(log).contains("Installed features"));
        assertThat(read(log)).as("the log of the whole run").doesNotContain(secrets);
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
