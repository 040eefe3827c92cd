package dev.cryo.cli.text;

import dev.cryo.cli.api.CliException;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TextTest {

    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @Test
    void measuredValuesReadInTheirUnits() {
        assertThat(Formats.measured(0.623, "share")).isEqualTo("62.3 %");
        assertThat(Formats.measured(812, "count")).isEqualTo("812");
        assertThat(Formats.measured(0.1336, "ratio")).isEqualTo("0.13");
        assertThat(Formats.measured(58 * 86_400, "seconds")).isEqualTo("58 d 0 h");
        assertThat(Formats.measured(1.5 * 1024 * 1024 * 1024, "bytes")).isEqualTo("1.5 GiB");
    }

    @Test
    void sizesAndDurationsAreShort() {
        assertThat(Formats.bytes(512)).isEqualTo("512 B");
        assertThat(Formats.bytes(2 * 1024 * 1024)).isEqualTo("2.0 MiB");
        assertThat(Formats.bytes(300L * 1024 * 1024 * 1024)).isEqualTo("300 GiB");
        assertThat(Formats.duration(Duration.ofMillis(800))).isEqualTo("800 ms");
        assertThat(Formats.duration(Duration.ofSeconds(75))).isEqualTo("1 min 15 s");
        assertThat(Formats.duration(Duration.ofHours(27))).isEqualTo("1 d 3 h");
        assertThat(Formats.ago(NOW.minusSeconds(12), NOW)).isEqualTo("12.0 s ago");
    }

    @Test
    void sinceTakesShortFormsDurationsDatesAndTimes() {
        assertThat(Since.parse("30m", NOW, ZoneOffset.UTC)).isEqualTo(NOW.minus(Duration.ofMinutes(30)));
        assertThat(Since.parse("2h", NOW, ZoneOffset.UTC)).isEqualTo(NOW.minus(Duration.ofHours(2)));
        assertThat(Since.parse("7d", NOW, ZoneOffset.UTC)).isEqualTo(NOW.minus(Duration.ofDays(7)));
        assertThat(Since.parse("PT90M", NOW, ZoneOffset.UTC)).isEqualTo(NOW.minus(Duration.ofMinutes(90)));
        assertThat(Since.parse("2026-11-01", NOW, ZoneOffset.UTC)).isEqualTo(Instant.parse("2026-11-01T00:00:00Z"));
        assertThat(Since.parse("2026-11-01T10:00:00+01:00", NOW, ZoneOffset.UTC)).isEqualTo(Instant.parse("2026-11-01T09:00:00Z"));
        assertThatThrownBy(() -> Since.parse("yesterday", NOW, ZoneOffset.UTC))
                .isInstanceOf(CliException.class)
                .hasMessage("Cannot read the time 'yesterday': write 30m, 2h, 7d, PT90M, 2026-01-31 or 2026-01-31T12:00:00Z");
    }

    @Test
    void tablesAlignTheirColumns() {
        StringWriter out = new StringWriter();
        new TextTable("TABLE", "GRADE", "SCORE").row("lakehouse.demo.orders", "A", 100).row("x.y.z", "F", null)
                .print(new PrintWriter(out));

        assertThat(out.toString().lines()).containsExactly(
                "TABLE                  GRADE  SCORE",
                "lakehouse.demo.orders  A      100",
                "x.y.z                  F      -");
        assertThatThrownBy(() -> new TextTable("A", "B").row("only one"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot add a row of 1 cells to a table of 2 columns");
    }
}
