package dev.cryo.enginesql.spark;

import dev.cryo.enginesql.Limitation;
import dev.cryo.enginesql.NotExpressibleException;
import dev.cryo.enginesql.expression.Sql;
import dev.cryo.enginesql.expression.SqlValue;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Spark SQL's quoting: identifiers in backticks with {@code `} doubled; string literals in single
 * quotes where the backslash is the escape character (Spark's default, and {@code ''} is NOT an
 * escaped quote there: {@code 'x''y'} is two adjacent literals, {@code xy}), so {@code '} becomes
 * {@code \'}, {@code \} becomes {@code \\}, and control characters become {@code \}{@code uXXXX};
 * typed literals ({@code DATE '…'}, {@code TIMESTAMP '…Z'}, {@code TIMESTAMP_NTZ '…'}, {@code 1.50BD},
 * {@code 5L}) for everything else.
 */
final class SparkDialect {

    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT);

    static String identifier(String name, String what) {
        Sql.checkName(name, what);
        return '`' + name.replace("`", "``") + '`';
    }

    static String string(String value, String what) {
        Sql.checkText(value, what);
        StringBuilder literal = new StringBuilder(value.length() + 2).append('\'');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\'') {
                literal.append("\\'");
            } else if (c == '\\') {
                literal.append("\\\\");
            } else if (Character.isISOControl(c)) {
                literal.append("\\u").append(Sql.hex4(c));
            } else {
                literal.append(c);
            }
        }
        return literal.append('\'').toString();
    }

    static String literal(SqlValue value, String what) {
        if (value instanceof SqlValue.Text text) {
            return string(text.value(), what);
        } else if (value instanceof SqlValue.Int whole) {
            return Integer.toString(whole.value());
        } else if (value instanceof SqlValue.BigInt whole) {
            return whole.value() + "L";
        } else if (value instanceof SqlValue.Decimal decimal) {
            return decimal.value().toPlainString() + "BD";
        } else if (value instanceof SqlValue.Real real) {
            return finite(Float.isFinite(real.value()), what) + real.value() + "F";
        } else if (value instanceof SqlValue.DoublePrecision number) {
            return finite(Double.isFinite(number.value()), what) + number.value() + "D";
        } else if (value instanceof SqlValue.Bool bool) {
            return bool.value() ? "true" : "false";
        } else if (value instanceof SqlValue.Date date) {
            return "DATE '" + date.value() + "'";
        } else if (value instanceof SqlValue.Time) {
            throw new NotExpressibleException(Limitation.SOURCE_TYPE_NOT_SUPPORTED,
                    "Cannot address " + what + " on Spark: Spark has no TIME type");
        } else if (value instanceof SqlValue.LocalTimestamp timestamp) {
            return "TIMESTAMP_NTZ '" + MICROS.format(microseconds(timestamp.fractionDigits(), what, timestamp.value())) + "'";
        } else if (value instanceof SqlValue.ZonedTimestamp timestamp) {
            return "TIMESTAMP '" + MICROS.format(microseconds(timestamp.fractionDigits(), what,
                    timestamp.value().atOffset(ZoneOffset.UTC).toLocalDateTime())) + "Z'";
        } else if (value instanceof SqlValue.Binary binary) {
            return "X'" + binary.hex() + "'";
        } else if (value instanceof SqlValue.Uuid uuid) {
            // Iceberg's uuid is a string column in Spark.
            return string(uuid.value().toString(), what);
        }
        throw new IllegalStateException("unknown value " + value.getClass());
    }

    private static <T> T microseconds(int fractionDigits, String what, T value) {
        if (fractionDigits > 6) {
            throw new NotExpressibleException(Limitation.SOURCE_TYPE_NOT_SUPPORTED,
                    "Cannot address " + what + " on Spark: Spark timestamps have microseconds, not nanoseconds");
        }
        return value;
    }

    private static String finite(boolean finite, String what) {
        if (!finite) {
            throw new NotExpressibleException(Limitation.SOURCE_TYPE_NOT_SUPPORTED,
                    "Cannot address " + what + " on Spark: NaN and infinities have no comparable literal");
        }
        return "";
    }

    private SparkDialect() {
    }
}
