package dev.cryo.scanner.config;

import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The defaults an operator gets without configuring anything. */
class ScannerConfigTest {

    @Test
    void defaults() {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(ScannerConfig.class).build();
        ScannerConfig scanner = config.getConfigMapping(ScannerConfig.class);

        assertThat(scanner.watcherInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(scanner.sweepInterval()).isEqualTo(Duration.ofHours(6));
        assertThat(scanner.orphanListingInterval()).isEqualTo(Duration.ofDays(1));
        assertThat(scanner.orphanAgeFloor()).isEqualTo(Duration.ofDays(3));
        assertThat(scanner.coalescingDelay()).isEqualTo(Duration.ofMillis(500));
        assertThat(scanner.scanWorkers()).isEqualTo(2);
        assertThat(scanner.manifestReadThreads()).isEqualTo(2);
        assertThat(scanner.smallManifestBytes()).isEqualTo(2L * 1024 * 1024);
        assertThat(scanner.manifestCacheEntries()).isEqualTo(200_000);
        assertThat(scanner.maxNotificationBytes()).isEqualTo(16 * 1024);
        assertThat(scanner.retryDelay()).isEqualTo(Duration.ofSeconds(5));
    }
}
