package dev.cryo.executor.domain;

import java.time.Duration;

/**
 * The age below which a file is never an orphan: a writer may have written it and not yet
 * committed it. Cryo refuses floors below one hour whatever the policy says.
 */
public final class OrphanAgeFloor {

    /** The smallest floor Cryo accepts. */
    public static final Duration MINIMUM = Duration.ofHours(1);

    /** The floor to use: the requested one, or the default; rejects floors under {@link #MINIMUM}. */
    public static Duration resolve(Duration requested, Duration defaultFloor) {
        Duration floor = requested == null ? defaultFloor : requested;
        if (floor.compareTo(MINIMUM) < 0) {
            throw new IllegalArgumentException("Cannot remove orphan files younger than " + floor
                    + ": the age floor must be at least " + MINIMUM + " (a writer may not have committed them yet);"
                    + " raise the table policy's orphan age floor or cryo.executor.orphans.default-age-floor");
        }
        return floor;
    }

    private OrphanAgeFloor() {
    }
}
