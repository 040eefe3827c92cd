package dev.cryo.enginesql.trino;

import dev.cryo.enginesql.Limitation;
import dev.cryo.enginesql.NotExpressibleException;
import dev.cryo.enginesql.expression.Sql;
import dev.cryo.enginesql.expression.SqlValue;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Trino's quoting: identifiers in double quotes with {@code "} doubled; string literals in single
 * quotes with {@code '} doubled, and, when a value holds control characters, a Unicode literal
 * {@code U&'…'} in which they (and the escape character {@code \}) are written as {@code \XXXX}
 * or {@code \+XXXXXX}; typed literals ({@code DATE '…'}, {@code TIMESTAMP '… UTC'},
 * {@code DECIMAL '…'}) for everything that is not a plain integer or boolean.
 */
final class TrinoDialect {

    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT);
    private static final DateTimeFormatter NANOS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSSSSS", Locale.ROOT);
    private static final DateTimeFormatter TIME_MICROS = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS", Locale.ROOT);

    static String identifier(String name, String what) {
        Sql.checkName(name, what);
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    static String string(String value, String what) {
        Sql.checkText(value, what);
        boolean control = value.chars().anyMatch(Character::isISOControl);
        if (!control) {
            return '\'' + value.replace("'", "''") + '\'';
        }
        StringBuilder literal = new StringBuilder("U&'");
        value.codePoints().forEach(codePoint -> {
            if (codePoint == '\'') {
                literal.append("''");
            } else if (codePoint == '\\') {
                literal.append("\\\\");
            } else if (Character.isISOControl(codePoint)) {
                literal.append('\\').append(String.format(Locale.ROOT, "%04X", codePoint));
            } else {
                literal.appendCodePoint(codePoint);
            }
        });
        return literal.append('\'').toString();
    }

    static String literal(SqlValue value, String what) {
        if (value instanceof SqlValue.Text text) {
            return string(text.value(), what);
        } else if (value instanceof SqlValue.Int whole) {
            return Integer.toString(whole.value());
        } else if (value instanceof SqlValue.BigInt whole) {
            return "BIGINT '" + whole.value() + "'";
        } else if (value instanceof SqlValue.Decimal decimal) {
            return "DECIMAL '" + decimal.value().toPlainString() + "'";
        } else if (value instanceof SqlValue.Real real) {
            return finite(Float.isFinite(real.value()), what, "REAL '" + real.value() + "'");
        } else if (value instanceof SqlValue.DoublePrecision number) {
            return finite(Double.isFinite(number.value()), what, "DOUBLE '" + number.value() + "'");
        } else if (value instanceof SqlValue.Bool bool) {
            return bool.value() ? "true" : "false";
        } else if (value instanceof SqlValue.Date date) {
            return "DATE '" + date.value() + "'";
        } else if (value instanceof SqlValue.Time time) {
            return "TIME '" + TIME_MICROS.format(time.value()) + "'";
        } else if (value instanceof SqlValue.LocalTimestamp timestamp) {
            return "TIMESTAMP '" + (timestamp.fractionDigits() > 6 ? NANOS : MICROS).format(timestamp.value()) + "'";
        } else if (value instanceof SqlValue.ZonedTimestamp timestamp) {
            return "TIMESTAMP '" + (timestamp.fractionDigits() > 6 ? NANOS : MICROS)
                    .format(timestamp.value().atOffset(ZoneOffset.UTC)) + " UTC'";
        } else if (value instanceof SqlValue.Binary binary) {
            return "X'" + binary.hex() + "'";
        } else if (value instanceof SqlValue.Uuid uuid) {
            return "UUID '" + uuid.value() + "'";
        }
        throw new IllegalStateException("unknown value " + value.getClass());
    }

    private static String finite(boolean finite, String what, String literal) {
        if (!finite) {
            // NaN equals nothing in SQL; the "$partition" form addresses such partitions instead.
            throw new NotExpressibleException(Limitation.SOURCE_TYPE_NOT_SUPPORTED,
                    "Cannot compare " + what + " with a non-finite value in SQL");
        }
        return literal;
    }

    private TrinoDialect() {
    }
}
