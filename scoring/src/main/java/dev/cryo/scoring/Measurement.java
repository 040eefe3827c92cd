package dev.cryo.scoring;

import static java.util.Objects.requireNonNull;

/** What a check found in a scan, before it is compared with the limits. */
sealed interface Measurement {

    /** A value to compare with the limits, in the check's measured unit. */
    record Value(double measured) implements Measurement {
    }

    /** Nothing to judge: reported as not-evaluated with the reason. */
    record NoData(String reason) implements Measurement {
        public NoData {
            requireNonNull(reason, "reason is null");
        }
    }

    /** Nothing wrong to measure (statistics exist): neither a value nor missing data. */
    record Healthy() implements Measurement {
    }

    static Measurement value(double measured) {
        return new Value(measured);
    }

    static Measurement noData(String reason) {
        return new NoData(reason);
    }
}
