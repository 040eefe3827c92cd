package dev.cryo.planner.domain;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.PartitionFieldInfo;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PartitionSpecInfo;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.contracts.event.TableScanned;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

import static dev.cryo.planner.domain.Fixtures.MIB;
import static dev.cryo.planner.domain.Fixtures.graded;
import static dev.cryo.planner.domain.Fixtures.partition;
import static dev.cryo.planner.domain.Fixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionPredicatesTest {

    @Test
    void identityIsAddressedByValueAndNullByNull() {
        assertThat(field("country", "string", "identity", "DE"))
                .isEqualTo(new FieldPredicate("country_p", "country", "string", "identity", "DE", null, null, "DE"));
        FieldPredicate nullValue = field("country", "string", "identity", null);
        assertThat(nullValue.isNullValue()).isTrue();
        assertThat(nullValue.humanValue()).isEqualTo("null");
        assertThat(nullValue.lowerInclusive()).isNull();
    }

    @Test
    void yearCoversTheWholeYear() {
        // 54 years after 1970.
        assertThat(field("ts", "timestamptz", "year", "54"))
                .isEqualTo(new FieldPredicate("ts_p", "ts", "timestamptz", "year", "54",
                        "2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z", "2024"));
        assertThat(field("d", "date", "year", "-1"))
                .isEqualTo(new FieldPredicate("d_p", "d", "date", "year", "-1", "1969-01-01", "1970-01-01", "1969"));
    }

    @Test
    void monthCoversTheWholeMonthIncludingFebruaryOfALeapYear() {
        // (2024 - 1970) * 12 + 1 = February 2024.
        assertThat(field("d", "date", "month", "649"))
                .isEqualTo(new FieldPredicate("d_p", "d", "date", "month", "649", "2024-02-01", "2024-03-01", "2024-02"));
        assertThat(field("ts", "timestamp", "month", "659"))
                .isEqualTo(new FieldPredicate("ts_p", "ts", "timestamp", "month", "659",
                        "2024-12-01T00:00:00", "2025-01-01T00:00:00", "2024-12"));
    }

    @Test
    void dayCoversTheWholeDayInTheSourceTypesText() {
        long day = LocalDate.parse("2024-01-31").toEpochDay();
        assertThat(field("ts", "timestamptz", "day", String.valueOf(day)))
                .isEqualTo(new FieldPredicate("ts_p", "ts", "timestamptz", "day", "19753",
                        "2024-01-31T00:00:00Z", "2024-02-01T00:00:00Z", "2024-01-31"));
        assertThat(field("ts", "timestamp", "day", "19753").lowerInclusive()).isEqualTo("2024-01-31T00:00:00");
        assertThat(field("ts", "timestamp_ns", "day", "19753").upperExclusive()).isEqualTo("2024-02-01T00:00:00");
        assertThat(field("ts", "timestamptz_ns", "day", "19753").upperExclusive()).isEqualTo("2024-02-01T00:00:00Z");
        assertThat(field("d", "date", "day", "19753"))
                .isEqualTo(new FieldPredicate("d_p", "d", "date", "day", "19753", "2024-01-31", "2024-02-01", "2024-01-31"));
        assertThat(field("d", "date", "day", "-1").lowerInclusive()).isEqualTo("1969-12-31");
    }

    @Test
    void hourCoversTheWholeHour() {
        // 2026-11-29T10:00Z is hour 498874 since the epoch.
        assertThat(field("ts", "timestamptz", "hour", "498874"))
                .isEqualTo(new FieldPredicate("ts_p", "ts", "timestamptz", "hour", "498874",
                        "2026-11-29T10:00:00Z", "2026-11-29T11:00:00Z", "2026-11-29-10"));
        assertThat(field("ts", "timestamp", "hour", "23").upperExclusive()).isEqualTo("1970-01-02T00:00:00");
        assertThatThrownBy(() -> field("d", "date", "hour", "5"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot address partition field d_p: the hour transform needs a timestamp column, d is a date");
    }

    @Test
    void bucketIsAddressedByItsNumber() {
        assertThat(field("id", "long", "bucket[16]", "3"))
                .isEqualTo(new FieldPredicate("id_p", "id", "long", "bucket[16]", "3", null, null, "bucket 3 of 16"));
    }

    @Test
    void truncateOfNumbersSpansTheWidth() {
        assertThat(field("qty", "int", "truncate[10]", "-20"))
                .isEqualTo(new FieldPredicate("qty_p", "qty", "int", "truncate[10]", "-20", "-20", "-10", "-20"));
        assertThat(field("id", "long", "truncate[1000]", "5000").upperExclusive()).isEqualTo("6000");
        FieldPredicate edge = field("qty", "int", "truncate[10]", String.valueOf(Integer.MAX_VALUE - 7));
        assertThat(edge.lowerInclusive()).isNull();
        assertThat(edge.humanValue()).isEqualTo("2147483640 (no source range: 2147483640 + 10 is beyond the range of int; "
                + "the partition holds every value from 2147483640)");
    }

    @Test
    void truncateOfDecimalsSpansTheWidthInUnitsOfTheScale() {
        // truncate[50] on decimal(10, 2) works on the unscaled value: 12.50 covers 12.50 up to 13.00.
        assertThat(field("price", "decimal(10, 2)", "truncate[50]", "12.50"))
                .isEqualTo(new FieldPredicate("price_p", "price", "decimal(10, 2)", "truncate[50]", "12.50",
                        "12.50", "13.00", "12.50"));
        assertThat(field("price", "decimal(4,1)", "truncate[5]", "999.5").lowerInclusive()).isNull();
    }

    @Test
    void truncateOfStringsSpansThePrefixOrIsExactForShortValues() {
        assertThat(field("sku", "string", "truncate[3]", "abc"))
                .isEqualTo(new FieldPredicate("sku_p", "sku", "string", "truncate[3]", "abc", "abc", "abd", "'abc' prefix"));
        FieldPredicate shortValue = field("sku", "string", "truncate[3]", "ab");
        assertThat(shortValue.lowerInclusive()).isNull();
        assertThat(shortValue.humanValue()).isEqualTo("'ab' exactly (shorter than the truncation width 3, "
                + "so no other string falls in this partition)");
        // Code points, not UTF-16 units: an emoji is one character of the prefix.
        assertThat(field("sku", "string", "truncate[2]", "a😀").upperExclusive()).isEqualTo("a😁");
    }

    @Test
    void theNextPrefixSkipsSurrogatesAndCarriesOverTheLastCodePoint() {
        assertThat(PartitionPredicates.nextPrefix("a\uD7FF")).isEqualTo("a\uE000");
        String maxCodePoint = new String(Character.toChars(Character.MAX_CODE_POINT));
        assertThat(PartitionPredicates.nextPrefix("a" + maxCodePoint)).isEqualTo("b");
        assertThat(PartitionPredicates.nextPrefix(maxCodePoint + maxCodePoint)).isNull();
        assertThat(field("sku", "string", "truncate[1]", maxCodePoint).lowerInclusive()).isNull();
    }

    @Test
    void voidFieldsAreSkipped() {
        PartitionSpecInfo spec = new PartitionSpecInfo(2, List.of(
                new PartitionFieldInfo("old_day", "ts", 1, "timestamptz", "void"),
                new PartitionFieldInfo("region", "region", 2, "string", "identity")));

        PartitionPredicate predicate = PartitionPredicates.of(spec, Arrays.asList(null, "eu"));

        assertThat(predicate.specId()).isEqualTo(2);
        assertThat(predicate.fields()).extracting(FieldPredicate::field).containsExactly("region");
    }

    @Test
    void anUnpartitionedTableIsOnePredicateWithoutFields() {
        assertThat(PartitionPredicates.of(new PartitionSpecInfo(0, List.of()), List.of()))
                .isEqualTo(new PartitionPredicate(0, List.of()));
    }

    @Test
    void valuesThatDoNotFitTheSpecAreRejected() {
        assertThatThrownBy(() -> PartitionPredicates.of(spec("ts", "timestamptz", "day"), List.of("1", "2")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot address partition [1, 2]: spec 0 has 1 fields, the partition 2 values");
        assertThatThrownBy(() -> field("ts", "timestamptz", "day", "yesterday"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot address partition field ts_p: value 'yesterday' is not a number of source type "
                        + "timestamptz, as transform day requires");
    }

    @Test
    void aDayPartitionedTableWhoseSpecBecameHourlyIsAddressedBySpec() {
        PartitionSpecInfo daily = new PartitionSpecInfo(0,
                List.of(new PartitionFieldInfo("event_day", "event_ts", 2, "timestamptz", "day")));
        PartitionSpecInfo hourly = new PartitionSpecInfo(1,
                List.of(new PartitionFieldInfo("event_ts_hour", "event_ts", 2, "timestamptz", "hour")));
        TableScanned scan = scan(List.of(daily, hourly), List.of(
                partition(0, List.of("20785"), 30, 300 * MIB, 0, 0),       // 2026-11-28, written daily
                partition(1, List.of("498874"), 12, 120 * MIB, 0, 0)));    // 2026-11-29 10:00, written hourly

        PlannedOperation optimize = Planner.plan(graded(Fixtures.deduction(Check.SMALL_FILES,
                dev.cryo.contracts.Severity.CRITICAL)), scan, PlanningPolicy.DEFAULTS)
                .operations().get(0);

        assertThat(optimize.operation()).isEqualTo(Operation.OPTIMIZE);
        assertThat(optimize.chunks().get(0).partitions()).containsExactly(
                new PartitionPredicate(0, List.of(new FieldPredicate("event_day", "event_ts", "timestamptz", "day",
                        "20785", "2026-11-28T00:00:00Z", "2026-11-29T00:00:00Z", "2026-11-28"))),
                new PartitionPredicate(1, List.of(new FieldPredicate("event_ts_hour", "event_ts", "timestamptz", "hour",
                        "498874", "2026-11-29T10:00:00Z", "2026-11-29T11:00:00Z", "2026-11-29-10"))));
    }

    private static FieldPredicate field(String column, String type, String transform, String value) {
        List<FieldPredicate> fields = PartitionPredicates.of(spec(column, type, transform), Arrays.asList(value)).fields();
        assertThat(fields).hasSize(1);
        return fields.get(0);
    }

    private static PartitionSpecInfo spec(String column, String type, String transform) {
        return new PartitionSpecInfo(0, List.of(new PartitionFieldInfo(column + "_p", column, 1, type, transform)));
    }
}
