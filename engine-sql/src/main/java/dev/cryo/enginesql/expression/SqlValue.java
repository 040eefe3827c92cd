package dev.cryo.enginesql.expression;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * A typed value that a dialect prints as a literal of the column's type. Built only by
 * {@link SqlValues}, which parses the plan's text, so every literal is a value of its type and
 * never a piece of SQL.
 */
public sealed interface SqlValue {

    record Text(String value) implements SqlValue {
        public Text {
            requireNonNull(value, "value is null");
        }
    }

    record Int(int value) implements SqlValue {
    }

    record BigInt(long value) implements SqlValue {
    }

    record Decimal(BigDecimal value, int precision, int scale) implements SqlValue {
        public Decimal {
            requireNonNull(value, "value is null");
        }
    }

    record Real(float value) implements SqlValue {
    }

    record DoublePrecision(double value) implements SqlValue {
    }

    record Bool(boolean value) implements SqlValue {
    }

    record Date(LocalDate value) implements SqlValue {
        public Date {
            requireNonNull(value, "value is null");
        }
    }

    record Time(LocalTime value) implements SqlValue {
        public Time {
            requireNonNull(value, "value is null");
        }
    }

    /** A timestamp without time zone; {@code fractionDigits} is 6 (micros) or 9 (nanos). */
    record LocalTimestamp(LocalDateTime value, int fractionDigits) implements SqlValue {
        public LocalTimestamp {
            requireNonNull(value, "value is null");
        }
    }

    /** A timestamp with time zone, always printed in UTC; {@code fractionDigits} is 6 or 9. */
    record ZonedTimestamp(Instant value, int fractionDigits) implements SqlValue {
        public ZonedTimestamp {
            requireNonNull(value, "value is null");
        }
    }

    /** Binary and fixed values, as lower-case hex digits. */
    record Binary(String hex) implements SqlValue {
        public Binary {
            requireNonNull(hex, "hex is null");
        }
    }

    record Uuid(UUID value) implements SqlValue {
        public Uuid {
            requireNonNull(value, "value is null");
        }
    }
}
