package dev.cryo.scanner.watch;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.catalog.CatalogSecrets;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.scanner.iceberg.ManifestCache;
import dev.cryo.scanner.iceberg.MetadataScanner;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import dev.cryo.testsupport.S3MockServer;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.GuardedRestCatalogServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The REST catalog with OAuth2, against Iceberg's own REST catalog server behind a gate that wants
 * a bearer token from a token endpoint of its own ({@link OAuth2Guard}), through nothing but the
 * Iceberg REST client's standard properties: {@code credential}, {@code oauth2-server-uri},
 * {@code scope}. The right credential scans and watches; short-lived tokens are refreshed; a wrong
 * or revoked credential gives an error naming the catalog, costs the servers a bounded number of
 * requests, and its secret reaches no error and no log line.
 */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class RestCatalogOAuth2Test {

    static final String CLIENT = "cryo-scanner";
    static final String SCOPE = "lakehouse.read";
    static final OffsetDateTime START = OffsetDateTime.of(2026, 11, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    @TempDir
    Path warehouse;
    final String secret = "client-secret-" + UUID.randomUUID();
    final List<AutoCloseable> opened = new ArrayList<>();
    OAuth2Guard guard;
    GuardedRestCatalogServer server;
    CapturedLog log;

    @AfterEach
    void closeAll() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    @Test
    void theRightCredentialScansAndWatchesAndNoTokenIsRefused() {
        start(Duration.ofMinutes(5));
        CatalogRegistry registry = registry(properties(guard.credential()));
        Table table = createTable(registry);
        TableId id = new TableId("remote", List.of(table.name().split("\\.")[1]), "events");
        PointerSource watcher = PointerSources.forCatalog("remote", properties(guard.credential()), registry);
        Map<TableId, String> before = watcher.pointers();
        new TableWriter(table).append(SampleTables.events(new Random(2), 1000, 300, START, Duration.ofDays(3), 3, 20));
        table.refresh();

        assertThat(watcher.pointers().get(id)).isNotEqualTo(before.get(id))
                .isEqualTo(((HasTableOperations) table).operations().current().metadataFileLocation());
        var readers = Executors.newFixedThreadPool(2);
        opened.add(readers::shutdownNow);
        TableScanned scanned = new MetadataScanner(ManifestCache.none(), readers, 2L * 1024 * 1024, Clock.systemUTC())
                .scan(id, registry.load(id), null);
        assertThat(scanned.totals().records()).isEqualTo(500);
        assertThat(guard.tokensIssued()).isPositive();
        assertThat(guard.rejectedCatalogRequests()).as("catalog requests refused").isZero();

        // the server does want a token: a client without credential is refused, with the catalog named
        assertThatThrownBy(() -> CatalogRegistry.create(Map.of("anonymous", Map.of("type", "rest", "uri", server.uri()))))
                .hasMessageStartingWith("Cannot configure catalog anonymous: ").hasMessageContaining("Not authorized");
        assertThat(log.all()).doesNotContain(secret);
    }

    @Test
    void shortLivedTokensAreRefreshedAndTheCatalogKeepsWorking() throws InterruptedException {
        start(Duration.ofSeconds(2));
        CatalogRegistry registry = registry(properties(guard.credential()));
        Table table = createTable(registry);
        PointerSource watcher = PointerSources.forCatalog("remote", properties(guard.credential()), registry);
        Instant end = Instant.now().plusSeconds(7);
        int polls = 0;
        while (Instant.now().isBefore(end)) {
            assertThat(watcher.pointers()).containsKey(new TableId("remote", List.of(table.name().split("\\.")[1]), "events"));
            polls++;
            Thread.sleep(500);
        }

        // every token lives 2 s: seven seconds of polls worked only because the client kept exchanging it for a new one
        assertThat(polls).isGreaterThan(10);
        assertThat(guard.tokensIssued()).isGreaterThanOrEqualTo(4);
        assertThat(guard.rejectedCatalogRequests()).as("catalog requests refused").isZero();
        assertThat(log.all()).doesNotContain(secret);
    }

    @Test
    void aWrongCredentialOrScopeFailsTheCatalogByNameWithoutItsSecret() {
        start(Duration.ofMinutes(5));
        String wrong = "wrong-secret-" + UUID.randomUUID();

        Throwable refused = catchThrowable(() -> registry(properties(CLIENT + ":" + wrong)));
        Map<String, String> wrongScope = new HashMap<>(properties(guard.credential()));
        wrongScope.put("scope", "lakehouse.admin");
        Throwable outOfScope = catchThrowable(() -> registry(wrongScope));

        assertThat(refused).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Cannot configure catalog remote: its server refused the credentials")
                .hasMessageContaining("invalid_client");
        assertThat(outOfScope).hasMessageStartingWith("Cannot configure catalog remote: ").hasMessageContaining("invalid_scope");
        for (Throwable failure : List.of(refused, outOfScope)) {
            assertThat(stackTrace(failure)).doesNotContain(wrong, secret);
        }
        assertThat(log.all()).doesNotContain(wrong, secret);
        assertThat(guard.catalogRequests()).as("catalog requests without a token").isZero();
        assertThat(guard.tokenRequests()).as("token requests: one per attempt, no retries").isEqualTo(2);
        // and were a server to echo the secret back, the error would not carry it
        Map<String, String> echoed = Map.of("credential", CLIENT + ":" + wrong, "token-refresh-enabled", "true");
        assertThat(CatalogSecrets.withoutSecrets("invalid client " + CLIENT + " with secret " + wrong + ", refresh true",
                echoed)).isEqualTo("invalid client " + CLIENT + " with secret ****, refresh true");
    }

    @Test
    void aRevokedCredentialFailsEachPollByNameWithoutARetryStorm() throws InterruptedException {
        start(Duration.ofSeconds(2));
        Map<String, String> properties = properties(guard.credential());
        CatalogRegistry registry = registry(properties);
        createTable(registry);
        ManualClock clock = new ManualClock(Instant.parse("2026-11-02T00:00:00Z"));
        WatchedCatalog watched = new WatchedCatalog("remote", properties,
                PointerSources.forCatalog("remote", properties, registry), clock);
        assertThat(watched.pointers()).hasSize(1);

        guard.revoke();
        int catalogRequests = guard.catalogRequests();
        List<String> errors = new ArrayList<>();
        for (int poll = 0; poll < 30; poll++) { // thirty scheduled polls, a second apart
            if (watched.due()) {
                errors.add(catchThrowable(watched::pointers).getMessage());
            }
            clock.advance(Duration.ofSeconds(1));
        }
        // the client's own refresh of its 2 s token fails too; it gives up after a few bounded retries
        Thread.sleep(7_000);
        int tokenRequests = guard.tokenRequests();
        Thread.sleep(3_000);

        assertThat(errors).hasSize(5).allSatisfy(error -> assertThat(error)
                .startsWith("Cannot poll catalog remote: the catalog refused the credentials").contains("Not authorized"));
        assertThat(watched.failures()).isEqualTo(5);
        assertThat(guard.catalogRequests() - catalogRequests).as("catalog requests in 30 polls").isEqualTo(5);
        assertThat(guard.tokenRequests()).as("token requests once the client gave up").isEqualTo(tokenRequests)
                .as("token requests in all").isLessThanOrEqualTo(20);
        assertThat(log.lines()).filteredOn(line -> line.startsWith("WARN") && line.contains("Cannot poll catalog remote"))
                .hasSize(1);
        assertThat(log.all()).doesNotContain(secret);
    }

    @Test
    void theServerVendsS3CredentialsThatTheClientReadsTheWarehouseWith() throws Exception {
        S3MockServer s3 = new S3MockServer(warehouse.resolve("s3"));
        opened.add(s3);
        Map<String, String> storage = s3.warehouseProperties("vended");
        Map<String, String> backend = new HashMap<>(storage);
        backend.put("include-credentials", "true");
        start(Duration.ofMinutes(5), backend);
        Map<String, String> client = new HashMap<>(properties(guard.credential()));
        // where the warehouse is, but no key: those come with each table from the catalog
        for (String key : List.of("io-impl", "s3.endpoint", "s3.path-style-access", "client.region", "http-client.type")) {
            client.put(key, storage.get(key));
        }
        CatalogRegistry registry = registry(client);
        Table table = createTable(registry);
        TableId id = new TableId("remote", List.of(table.name().split("\\.")[1]), "events");

        Table loaded = registry.load(id);
        var readers = Executors.newFixedThreadPool(2);
        opened.add(readers::shutdownNow);
        TableScanned scanned = new MetadataScanner(ManifestCache.none(), readers, 2L * 1024 * 1024, Clock.systemUTC())
                .scan(id, loaded, null);

        assertThat(loaded.location()).startsWith("s3://warehouse/vended/");
        assertThat(scanned.totals().records()).isEqualTo(200);
        assertThat(loaded.io().properties()).as("the FileIO the scan read with")
                .containsEntry("s3.access-key-id", storage.get("s3.access-key-id"))
                .containsEntry("s3.secret-access-key", storage.get("s3.secret-access-key"));
        assertThat(log.all()).doesNotContain(secret, storage.get("s3.secret-access-key"));
    }

    void start(Duration lifetime) {
        start(lifetime, Map.of());
    }

    /** Starts the token endpoint and the gated REST catalog; tokens live {@code lifetime}. */
    void start(Duration lifetime, Map<String, String> backendStorage) {
        guard = new OAuth2Guard(CLIENT, secret, SCOPE, lifetime);
        Map<String, String> backend = new HashMap<>(LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword(), "scanner_rest_oauth2_test", warehouse));
        backend.putAll(backendStorage);
        backend.remove("type");
        backend.put("catalog-impl", "org.apache.iceberg.jdbc.JdbcCatalog");
        // a backend catalog of its own: the tables of earlier tests (their warehouses deleted) stay out of its listings
        backend.put("catalog.name", "oauth_backend_" + UUID.randomUUID().toString().substring(0, 8));
        try {
            server = new GuardedRestCatalogServer(backend, guard.tokenEndpoint(), guard.gate());
        } catch (Exception e) {
            throw new IllegalStateException("Cannot start the REST catalog server", e);
        }
        opened.add(server);
        log = CapturedLog.start();
        opened.add(log);
    }

    /** The standard Iceberg REST client properties of a catalog behind an OAuth2 server. */
    Map<String, String> properties(String credential) {
        return Map.of("type", "rest", "uri", server.uri(), "credential", credential,
                "oauth2-server-uri", server.tokenUri(), "scope", SCOPE);
    }

    CatalogRegistry registry(Map<String, String> properties) {
        CatalogRegistry registry = CatalogRegistry.create(Map.of("remote", properties));
        opened.add(registry);
        return registry;
    }

    static Table createTable(CatalogRegistry registry) {
        Namespace namespace = Namespace.of("oauth_" + UUID.randomUUID().toString().substring(0, 8));
        ((SupportsNamespaces) registry.catalog("remote")).createNamespace(namespace);
        Table table = registry.catalog("remote").createTable(TableIdentifier.of(namespace, "events"), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(), Map.of("format-version", "2"));
        new TableWriter(table).append(SampleTables.events(new Random(1), 0, 200, START, Duration.ofDays(3), 3, 20));
        table.refresh();
        return table;
    }

    static String stackTrace(Throwable failure) {
        var out = new java.io.StringWriter();
        failure.printStackTrace(new java.io.PrintWriter(out));
        return out.toString();
    }

    /** A clock that moves only when told. */
    static final class ManualClock extends Clock {
        private Instant now;

        ManualClock(Instant now) {
            this.now = now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
