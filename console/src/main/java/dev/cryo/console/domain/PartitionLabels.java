package dev.cryo.console.domain;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Partition values as people read them. The scanner reports Iceberg's internal representation
 * ({@code day} = days since 1970-01-01, {@code hour} = hours since the epoch, …); this turns them into
 * dates, hours and bucket numbers.
 */
public final class PartitionLabels {

    private static final Pattern BUCKET = Pattern.compile("bucket\\[(\\d+)]");
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:00", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /**
     * @param transform the spec field's transform as Iceberg prints it ({@code day}, {@code bucket[16]}, …)
     * @param value the internal value (null: a null partition value)
     */
    public static String label(String transform, String value) {
        if (value == null) {
            return "null";
        }
        String kind = transform == null ? "" : transform.trim();
        try {
            switch (kind) {
                case "year":
                    return Integer.toString(1970 + Integer.parseInt(value));
                case "month":
                    return YearMonth.of(1970, 1).plusMonths(Long.parseLong(value)).toString();
                case "day":
                    return LocalDate.ofEpochDay(Long.parseLong(value)).toString();
                case "hour":
                    return HOUR.format(Instant.ofEpochSecond(Long.parseLong(value) * 3600));
                default:
                    break;
            }
        } catch (NumberFormatException | java.time.DateTimeException e) {
            // Not the number the transform promises: show what the scanner sent rather than guess.
            return value;
        }
        Matcher bucket = BUCKET.matcher(kind);
        if (bucket.matches()) {
            return "bucket " + value + " of " + bucket.group(1);
        }
        return value;
    }

    /**
     * An order for values of one field: numbers by value (days, hours, buckets), other text
     * alphabetically, nulls first.
     */
    public static int compare(String left, String right) {
        if (left == null || right == null) {
            return left == null ? (right == null ? 0 : -1) : 1;
        }
        Long leftNumber = number(left);
        Long rightNumber = number(right);
        if (leftNumber != null && rightNumber != null) {
            return Long.compare(leftNumber, rightNumber);
        }
        if (leftNumber != null || rightNumber != null) {
            return leftNumber != null ? -1 : 1;
        }
        return left.compareTo(right);
    }

    private static Long number(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private PartitionLabels() {
    }
}
