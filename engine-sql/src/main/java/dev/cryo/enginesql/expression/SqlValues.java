package dev.cryo.enginesql.expression;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Parses the plan's text into typed values. Two forms reach the renderers: a partition value in
 * Iceberg's internal representation (days since epoch for a date, microseconds for a timestamp,
 * lower-case hex for binary), and a source-range bound in the source type's ISO text form
 * ({@code 2024-01-31}, {@code 2024-01-31T00:00:00}, {@code 2024-01-31T00:00:00Z}). Anything else
 * fails with a {@link CannotRenderException} that names the field.
 */
public final class SqlValues {

    private static final Pattern INTEGER = Pattern.compile("-?\\d{1,19}");
    private static final Pattern FLOATING = Pattern.compile("-?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?|NaN|-?Infinity");
    private static final Pattern DECIMAL = Pattern.compile("-?(\\d+(\\.\\d*)?|\\.\\d+)");
    private static final Pattern HEX = Pattern.compile("([0-9a-fA-F]{2})*");
    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern ISO_DATE = Pattern.compile("[+-]?\\d{4,9}-\\d{2}-\\d{2}");
    private static final Pattern ISO_LOCAL_TIMESTAMP = Pattern.compile("[+-]?\\d{4,9}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?");
    private static final Pattern ISO_UTC_TIMESTAMP = Pattern.compile(
            "[+-]?\\d{4,9}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})");

    /** A partition value (identity, truncate) in Iceberg's internal representation. */
    public static SqlValue internal(SourceType type, String text, String what) {
        try {
            return switch (type.kind()) {
                case BOOLEAN -> switch (text) {
                    case "true" -> new SqlValue.Bool(true);
                    case "false" -> new SqlValue.Bool(false);
                    default -> throw invalid(type, text, what, "expected true or false");
                };
                case INT -> new SqlValue.Int(Integer.parseInt(matching(INTEGER, type, text, what)));
                case LONG -> new SqlValue.BigInt(Long.parseLong(matching(INTEGER, type, text, what)));
                case FLOAT -> new SqlValue.Real(Float.parseFloat(matching(FLOATING, type, text, what)));
                case DOUBLE -> new SqlValue.DoublePrecision(Double.parseDouble(matching(FLOATING, type, text, what)));
                case DECIMAL -> decimal(type, text, what);
                case DATE -> new SqlValue.Date(LocalDate.ofEpochDay(Integer.parseInt(matching(INTEGER, type, text, what))));
                case TIME -> new SqlValue.Time(LocalTime.ofNanoOfDay(
                        Math.multiplyExact(Long.parseLong(matching(INTEGER, type, text, what)), 1000L)));
                case TIMESTAMP -> new SqlValue.LocalTimestamp(LocalDateTime.ofInstant(
                        micros(Long.parseLong(matching(INTEGER, type, text, what))), ZoneOffset.UTC), 6);
                case TIMESTAMPTZ -> new SqlValue.ZonedTimestamp(micros(Long.parseLong(matching(INTEGER, type, text, what))), 6);
                case TIMESTAMP_NS -> new SqlValue.LocalTimestamp(LocalDateTime.ofInstant(
                        nanos(Long.parseLong(matching(INTEGER, type, text, what))), ZoneOffset.UTC), 9);
                case TIMESTAMPTZ_NS -> new SqlValue.ZonedTimestamp(nanos(Long.parseLong(matching(INTEGER, type, text, what))), 9);
                case STRING -> new SqlValue.Text(Sql.checkText(text, what));
                case UUID -> new SqlValue.Uuid(UUID.fromString(matching(UUID_TEXT, type, text, what)));
                case FIXED, BINARY -> new SqlValue.Binary(matching(HEX, type, text, what).toLowerCase(Locale.ROOT));
                case OTHER -> throw new CannotRenderException("Cannot render " + what + ": source type '"
                        + Sql.printable(type.text()) + "' is not an Iceberg primitive type Cryo knows");
            };
        } catch (NumberFormatException | ArithmeticException | java.time.DateTimeException e) {
            throw invalid(type, text, what, e.getMessage());
        }
    }

    /**
     * A bound of a source range: ISO text for dates and timestamps, the plain value for the
     * types that truncate cuts (int, long, decimal, string, binary as hex).
     */
    public static SqlValue bound(SourceType type, String text, String what) {
        try {
            return switch (type.kind()) {
                case DATE -> new SqlValue.Date(LocalDate.parse(matching(ISO_DATE, type, text, what)));
                case TIMESTAMP, TIMESTAMP_NS -> new SqlValue.LocalTimestamp(
                        LocalDateTime.parse(matching(ISO_LOCAL_TIMESTAMP, type, text, what)), type.isNanosecondTimestamp() ? 9 : 6);
                case TIMESTAMPTZ, TIMESTAMPTZ_NS -> new SqlValue.ZonedTimestamp(
                        OffsetDateTime.parse(matching(ISO_UTC_TIMESTAMP, type, text, what)).toInstant(),
                        type.isNanosecondTimestamp() ? 9 : 6);
                default -> internal(type, text, what);
            };
        } catch (DateTimeParseException e) {
            throw invalid(type, text, what, e.getMessage());
        }
    }

    private static SqlValue decimal(SourceType type, String text, String what) {
        BigDecimal value = new BigDecimal(matching(DECIMAL, type, text, what));
        BigDecimal scaled = value.setScale(type.scale()); // throws ArithmeticException if digits would be lost
        if (scaled.precision() > type.precision() && scaled.signum() != 0) {
            throw invalid(type, text, what, "more than " + type.precision() + " digits");
        }
        return new SqlValue.Decimal(scaled, type.precision(), type.scale());
    }

    private static Instant micros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    private static Instant nanos(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    private static String matching(Pattern pattern, SourceType type, String text, String what) {
        if (text == null || !pattern.matcher(text).matches()) {
            throw invalid(type, text, what, "not the text form of that type");
        }
        return text;
    }

    private static CannotRenderException invalid(SourceType type, String text, String what, String reason) {
        return new CannotRenderException("Cannot render " + what + ": '" + Sql.printable(text)
                + "' is not a value of source type " + Sql.printable(type.text()) + " (" + reason + ")");
    }

    private SqlValues() {
    }
}
