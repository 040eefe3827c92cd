package dev.cryo.iceberg.catalog;

import org.apache.iceberg.CatalogUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The Glue, Nessie and Hive catalogs on Cryo's class path, named by {@code type} or by {@code catalog-impl}:
 * each catalog class loads with the client stack it needs (a missing jar shows as a
 * {@code NoClassDefFoundError} only when the client first runs, so the tests make it reach for its
 * server), and a catalog without an endpoint fails at start-up with its name and the property to set.
 * No Nessie, Glue or Hive server runs here: the endpoints are a closed local port.
 */
class CatalogKindsTest {

    private static final String NESSIE_WITHOUT_URI =
            ": set 'uri' to the Nessie server's REST API, e.g. http://nessie:19120/api/v2";
    private static final String HIVE_WITHOUT_URI = ": set 'uri' to the Hive Metastore's Thrift address, e.g."
            + " thrift://metastore:9083 (without it the Hive client starts an embedded metastore, which Cryo does not ship)";
    private static final String GLUE_WITHOUT_REGION = ": no AWS region: set 'client.region' or AWS_REGION";

    static Stream<Arguments> remoteCatalogs() {
        String closed = "http://127.0.0.1:" + closedPort();
        Map<String, String> nessie = Map.of("uri", closed + "/api/v2");
        // An explicit region and anonymous credentials: nothing comes from ~/.aws or AWS_* of this machine.
        Map<String, String> glue = Map.of("client.region", "us-east-1", "glue.endpoint", closed,
                "client.credentials-provider", AnonymousCredentialsProvider.class.getName());
        return Stream.of(
                arguments("type=nessie", with(nessie, "type", "nessie"), CatalogUtil.ICEBERG_CATALOG_NESSIE),
                arguments("catalog-impl=NessieCatalog", with(nessie, "catalog-impl", CatalogUtil.ICEBERG_CATALOG_NESSIE),
                        CatalogUtil.ICEBERG_CATALOG_NESSIE),
                arguments("type=glue", with(glue, "type", "glue"), CatalogUtil.ICEBERG_CATALOG_GLUE),
                arguments("catalog-impl=GlueCatalog", with(glue, "catalog-impl", CatalogUtil.ICEBERG_CATALOG_GLUE),
                        CatalogUtil.ICEBERG_CATALOG_GLUE));
    }

    /** The catalog builds, and listing its tables fails on the refused connection, not on a missing class. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("remoteCatalogs")
    void theCatalogClassLoadsAndItsClientReachesForTheEndpoint(String kind, Map<String, String> properties,
                                                                String catalogClass, @TempDir Path warehouse)
            throws IOException {
        try (CatalogRegistry registry = CatalogRegistry.create(
                Map.of("remote", with(properties, "warehouse", warehouse.toUri().toString())))) {
            assertThat(registry.catalog("remote").getClass().getName()).isEqualTo(catalogClass);

            Throwable failure = catchThrowable(() -> registry.listTables("remote"));

            assertThat(causes(failure)).as("the causes of %s", failure)
                    .anyMatch(ConnectException.class::isInstance)
                    .noneMatch(LinkageError.class::isInstance);
        }
    }

    static Stream<Arguments> catalogsWithoutEndpoint() {
        return Stream.of(
                arguments("nessie_prod", Map.of("type", "nessie"), NESSIE_WITHOUT_URI),
                arguments("nessie_prod", Map.of("catalog-impl", CatalogUtil.ICEBERG_CATALOG_NESSIE, "uri", " "),
                        NESSIE_WITHOUT_URI),
                arguments("hms", Map.of("type", "hive"), HIVE_WITHOUT_URI),
                arguments("hms", Map.of("catalog-impl", CatalogUtil.ICEBERG_CATALOG_HIVE), HIVE_WITHOUT_URI));
    }

    /**
     * Without the check, Nessie says "URI is not specified in the catalog properties" and Hive builds, then
     * fails at the first call with {@code NoClassDefFoundError: javax/jdo/JDOException}.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("catalogsWithoutEndpoint")
    void aCatalogWithoutItsUriIsRejectedNamingTheCatalogAndTheProperty(String name, Map<String, String> properties,
                                                                       String problem) {
        assertThatThrownBy(() -> CatalogRegistry.create(Map.of(name, properties)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot configure catalog " + name + problem);
    }

    /** The check leaves alone a metastore address given in the Hadoop configuration instead of {@code uri}. */
    @ParameterizedTest
    @ValueSource(strings = {"uri", "hadoop.hive.metastore.uris"})
    void aHiveCatalogWithAMetastoreAddressBuilds(String property) throws IOException {
        Map<String, String> properties = Map.of("type", "hive", property, "thrift://127.0.0.1:" + closedPort());

        try (CatalogRegistry registry = CatalogRegistry.create(Map.of("hms", properties))) {
            assertThat(registry.catalog("hms").getClass().getName()).isEqualTo(CatalogUtil.ICEBERG_CATALOG_HIVE);
        }
    }

    /**
     * Without a region Glue is rejected; with none in the properties the SDK's chain is asked, so
     * {@code AWS_REGION} is enough. Run in a JVM of its own, without this machine's AWS_* variables,
     * profile files or EC2 metadata, where the region is exactly what each case gives.
     */
    @Test
    void glueWithoutAnAwsRegionIsRejectedButTakesItFromTheEnvironment(@TempDir Path home) throws Exception {
        assertThat(inJvmWithoutAwsSettings(home, Map.of(), "glue_prod", "type=glue"))
                .isEqualTo("rejected: Cannot configure catalog glue_prod" + GLUE_WITHOUT_REGION);
        assertThat(inJvmWithoutAwsSettings(home, Map.of(), "glue_prod", "catalog-impl=" + CatalogUtil.ICEBERG_CATALOG_GLUE))
                .isEqualTo("rejected: Cannot configure catalog glue_prod" + GLUE_WITHOUT_REGION);
        assertThat(inJvmWithoutAwsSettings(home, Map.of("AWS_REGION", "eu-west-1"), "glue_prod", "type=glue"))
                .isEqualTo("built: " + CatalogUtil.ICEBERG_CATALOG_GLUE);
    }

    /** What {@link WithoutAwsSettings} printed, run with only the given AWS_* variables. */
    private static String inJvmWithoutAwsSettings(Path home, Map<String, String> awsEnvironment, String... arguments)
            throws IOException, InterruptedException {
        Path missing = home.resolve("no-such-file");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                "-Duser.home=" + home, "-Daws.configFile=" + missing, "-Daws.sharedCredentialsFile=" + missing,
                "-Daws.disableEc2Metadata=true", WithoutAwsSettings.class.getName()));
        command.addAll(List.of(arguments));
        Path output = home.resolve("stdout.txt");
        Path errors = home.resolve("stderr.txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(output.toFile()).redirectError(errors.toFile());
        builder.environment().keySet().removeIf(key -> key.startsWith("AWS_"));
        builder.environment().putAll(awsEnvironment);
        Process process = builder.start();
        try {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(() -> "finished in time: " + readQuietly(errors)).isTrue();
        } finally {
            process.destroyForcibly();
        }
        assertThat(process.exitValue()).as(() -> readQuietly(errors)).isZero();
        return Files.readString(output).strip();
    }

    /** Builds one catalog from {@code name key=value…} and prints whether it was built or rejected, and why. */
    static final class WithoutAwsSettings {
        public static void main(String[] arguments) throws IOException {
            Map<String, String> properties = new HashMap<>();
            for (int i = 1; i < arguments.length; i++) {
                String[] property = arguments[i].split("=", 2);
                properties.put(property[0], property[1]);
            }
            try (CatalogRegistry registry = CatalogRegistry.create(Map.of(arguments[0], properties))) {
                System.out.println("built: " + registry.catalog(arguments[0]).getClass().getName());
            } catch (IllegalArgumentException e) {
                System.out.println("rejected: " + e.getMessage());
            }
        }
    }

    private static Map<String, String> with(Map<String, String> properties, String key, String value) {
        Map<String, String> result = new HashMap<>(properties);
        result.put(key, value);
        return result;
    }

    private static List<Throwable> causes(Throwable failure) {
        List<Throwable> causes = new ArrayList<>();
        for (Throwable cause = failure; cause != null && !causes.contains(cause); cause = cause.getCause()) {
            causes.add(cause);
        }
        return causes;
    }

    /** A local port that nothing listens on: one the system just handed out and that was closed again. */
    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot find a free local port", e);
        }
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(no stderr: " + e.getMessage() + ")";
        }
    }

    @Test
    void onlyALostRaceOverTheJdbcCatalogsTablesIsWorthAnotherStart() {
        SQLException duplicateColumn = new SQLException("column \"iceberg_type\" of relation \"iceberg_tables\" already exists",
                "42701");
        SQLException wrongPassword = new SQLException("password authentication failed for user \"cryo\"", "28P01");

        assertThat(CatalogRegistry.lostSchemaRace(new RuntimeException("Cannot check and eventually update SQL schema",
                duplicateColumn))).isTrue();
        assertThat(CatalogRegistry.lostSchemaRace(new RuntimeException("Cannot initialize JDBC catalog",
                new SQLException("relation \"iceberg_tables\" already exists", "42P07")))).isTrue();
        assertThat(CatalogRegistry.lostSchemaRace(new RuntimeException("Cannot update JDBC catalog: Connection failed",
                wrongPassword))).isFalse();
        assertThat(CatalogRegistry.lostSchemaRace(new IllegalStateException("no SQL involved"))).isFalse();
    }
}
