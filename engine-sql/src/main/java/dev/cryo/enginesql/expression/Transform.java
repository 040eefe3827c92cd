package dev.cryo.enginesql.expression;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * An Iceberg partition transform as the scanner prints it: {@code identity}, {@code year},
 * {@code month}, {@code day}, {@code hour}, {@code bucket[N]}, {@code truncate[W]}, {@code void}.
 * Anything else is {@link Kind#OTHER}: no renderer addresses its partitions.
 *
 * @param kind the transform
 * @param parameter the bucket count or truncation width (0 for the others)
 * @param text the transform as it was given
 */
public record Transform(Kind kind, int parameter, String text) {

    public enum Kind {
        IDENTITY, YEAR, MONTH, DAY, HOUR, BUCKET, TRUNCATE, VOID, OTHER;

        /** Year, month, day and hour: partitions are half-open ranges of the source column. */
        public boolean isTemporal() {
            return this == YEAR || this == MONTH || this == DAY || this == HOUR;
        }
    }

    private static final Pattern PARAMETERIZED = Pattern.compile("(bucket|truncate)\\[(\\d{1,9})]");

    public Transform {
        requireNonNull(kind, "kind is null");
        requireNonNull(text, "text is null");
    }

    public static Transform parse(String text) {
        requireNonNull(text, "transform is null");
        String normalized = text.trim().toLowerCase(Locale.ROOT);
        Matcher matcher = PARAMETERIZED.matcher(normalized);
        if (matcher.matches()) {
            int parameter = Integer.parseInt(matcher.group(2));
            if (parameter < 1) {
                throw new CannotRenderException("Cannot read transform '" + Sql.printable(text)
                        + "': its parameter must be positive");
            }
            return new Transform(matcher.group(1).equals("bucket") ? Kind.BUCKET : Kind.TRUNCATE, parameter, text);
        }
        return switch (normalized) {
            case "identity" -> new Transform(Kind.IDENTITY, 0, text);
            case "year" -> new Transform(Kind.YEAR, 0, text);
            case "month" -> new Transform(Kind.MONTH, 0, text);
            case "day" -> new Transform(Kind.DAY, 0, text);
            case "hour" -> new Transform(Kind.HOUR, 0, text);
            case "void" -> new Transform(Kind.VOID, 0, text);
            default -> new Transform(Kind.OTHER, 0, text);
        };
    }
}
