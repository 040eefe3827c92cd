package dev.cryo.console.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class FormatsTest {

    @Test
    void bytesUseBinaryUnitsWithOneDecimal() {
        assertThat(Formats.bytes(0)).isEqualTo("0 B");
        assertThat(Formats.bytes(1023)).isEqualTo("1023 B");
        assertThat(Formats.bytes(1024)).isEqualTo("1 KiB");
        assertThat(Formats.bytes(1536)).isEqualTo("1.5 KiB");
        assertThat(Formats.bytes(128L * 1024 * 1024)).isEqualTo("128 MiB");
        assertThat(Formats.bytes(1_610_612_736L)).isEqualTo("1.5 GiB");
        assertThat(Formats.bytes(-2048)).isEqualTo("-2 KiB");
    }

    @Test
    void measuredValuesReadInTheirUnit() {
        assertThat(Formats.measured(0.623, "share")).isEqualTo("62.3 %");
        assertThat(Formats.measured(0.5, "share")).isEqualTo("50 %");
        assertThat(Formats.measured(812, "count")).isEqualTo("812");
        assertThat(Formats.measured(12_345, "count")).isEqualTo("12,345");
        assertThat(Formats.measured(0.271, "ratio")).isEqualTo("0.27");
        assertThat(Formats.measured(58 * 86_400, "seconds")).isEqualTo("58 days");
        assertThat(Formats.measured(1L << 30, "bytes")).isEqualTo("1 GiB");
        assertThat(Formats.measured(3.5, "furlongs")).isEqualTo("3.500 furlongs");
    }

    @Test
    void momentsReadRelativeToNow() {
        Instant now = Instant.parse("2026-11-29T12:00:00Z");
        assertThat(Formats.relative(null, now)).isEqualTo("never");
        assertThat(Formats.relative(now.minusMillis(500), now)).isEqualTo("just now");
        assertThat(Formats.relative(now.minusSeconds(42), now)).isEqualTo("42 s ago");
        assertThat(Formats.relative(now.minusSeconds(5 * 60 + 10), now)).isEqualTo("5 min ago");
        assertThat(Formats.relative(now.minusSeconds(3 * 3600), now)).isEqualTo("3 h ago");
        assertThat(Formats.relative(now.minus(Duration.ofDays(1)), now)).isEqualTo("1 day ago");
        assertThat(Formats.relative(now.plusSeconds(30), now)).isEqualTo("in 30 s");
        assertThat(Formats.time(now)).isEqualTo("2026-11-29 12:00:00 UTC");
    }

    @Test
    void durationsReadAsWallTime() {
        assertThat(Formats.duration(Duration.ofMillis(850))).isEqualTo("850 ms");
        assertThat(Formats.duration(Duration.ofMillis(4200))).isEqualTo("4.2 s");
        assertThat(Formats.duration(Duration.ofSeconds(184))).isEqualTo("3 min 4 s");
        assertThat(Formats.duration(Duration.ofMinutes(125))).isEqualTo("2 h 5 min");
        assertThat(Formats.duration(null)).isEmpty();
    }
}
