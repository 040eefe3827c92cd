package dev.cryo.contracts;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * An Iceberg partition transform as the scanner prints it in
 * {@link dev.cryo.contracts.event.PartitionFieldInfo#transform()}: {@code identity}, {@code year},
 * {@code month}, {@code day}, {@code hour}, {@code bucket[N]}, {@code truncate[W]}, {@code void}.
 * A transform Cryo does not know is {@link Kind#OTHER}: the planner still addresses its partitions
 * by value (without a source range), and no SQL renderer addresses them. The one parser of the
 * planner and the renderers, so that they cannot disagree on what a transform is.
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

    private static final Pattern PARAMETERIZED = Pattern.compile("(bucket|truncate)\\[(\\d+)]");

    public Transform {
        requireNonNull(kind, "kind is null");
        requireNonNull(text, "text is null");
    }

    /**
     * The transform of that text (case and surrounding blanks ignored).
     *
     * @throws IllegalArgumentException when a bucket count or width is zero or larger than an {@code int}
     */
    public static Transform parse(String text) {
        requireNonNull(text, "transform is null");
        String normalized = text.trim().toLowerCase(Locale.ROOT);
        Matcher matcher = PARAMETERIZED.matcher(normalized);
        if (matcher.matches()) {
            int parameter;
            try {
                parameter = Integer.parseInt(matcher.group(2));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("Cannot read transform '" + normalized + "': its parameter is too large", e);
            }
            if (parameter < 1) {
                throw new IllegalArgumentException("Cannot read transform '" + normalized + "': its parameter must be positive");
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
