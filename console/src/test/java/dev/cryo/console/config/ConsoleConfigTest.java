package dev.cryo.console.config;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ConsoleConfigTest {

    @Test
    void defaultsAreTheLocalPortsAndTheDocumentedValues() {
        ConsoleConfig config = mapping(Map.of());

        assertThat(config.services().scanner()).isEqualTo(URI.create("http://127.0.0.1:8181"));
        assertThat(config.services().scorer()).isEqualTo(URI.create("http://127.0.0.1:8182"));
        assertThat(config.services().planner()).isEqualTo(URI.create("http://127.0.0.1:8183"));
        assertThat(config.services().governor()).isEqualTo(URI.create("http://127.0.0.1:8184"));
        assertThat(config.services().executor()).isEqualTo(URI.create("http://127.0.0.1:8185"));
        assertThat(config.services().audit()).isEqualTo(URI.create("http://127.0.0.1:8186"));
        assertThat(config.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.readTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.refreshInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.fleetLimit()).isEqualTo(1000);
        assertThat(config.historyLimit()).isEqualTo(60);
        assertThat(config.recentJobs()).isEqualTo(200);
        assertThat(config.timelineEvents()).isEqualTo(80);
        assertThat(config.session().lifetime()).isEqualTo(Duration.ofHours(8));
        assertThat(config.session().key()).isEmpty();
        assertThat(config.sql().trinoCatalogs()).isEmpty();
        assertThat(config.sql().sparkCatalogs()).isEmpty();
    }

    @Test
    void servicesAndCatalogNamesAreConfigurable() {
        ConsoleConfig config = mapping(Map.of(
                "cryo.console.services.scorer", "http://scorer.internal:9000",
                "cryo.console.sql.trino-catalogs.lakehouse", "iceberg"));

        assertThat(config.services().scorer()).isEqualTo(URI.create("http://scorer.internal:9000"));
        assertThat(config.sql().trinoCatalogs()).containsExactly(Map.entry("lakehouse", "iceberg"));
    }

    private static ConsoleConfig mapping(Map<String, String> properties) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(ConsoleConfig.class)
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .build();
        return config.getConfigMapping(ConsoleConfig.class);
    }
}
