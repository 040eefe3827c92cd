package dev.cryo.contracts;

import java.time.Duration;

/**
 * The rule every service that plans or runs remove_orphan_files shares: a file younger than the
 * age floor is never an orphan (a writer may have written it and not committed it yet: a long
 * Spark job, a Flink job recovering from a checkpoint), and the floor is at least {@link #MINIMUM}
 * unless the deployment allows lower ones ({@code cryo.orphans.allow-unsafe-floor=true}) for both the
 * planner, which puts the floor into plans, and the executor, which runs them.
 */
public final class OrphanAgeFloors {

    /** The smallest floor Cryo accepts unless unsafe floors are allowed. */
    public static final Duration MINIMUM = Duration.ofHours(24);

    /** Whether floors under {@link #MINIMUM} may be used. */
    public enum UnsafeFloors {
        REFUSED,
        ALLOWED
    }

    /**
     * Checks a floor.
     *
     * @param setting the setting that asked for it, named in the error
     * @throws IllegalArgumentException when it is negative, or under {@link #MINIMUM} and unsafe floors are refused
     */
    public static void check(Duration floor, UnsafeFloors unsafeFloors, String setting) {
        if (floor.isNegative()) {
            throw new IllegalArgumentException("Cannot remove orphan files with a negative age floor " + floor + " (" + setting + ")");
        }
        if (floor.compareTo(MINIMUM) < 0 && unsafeFloors == UnsafeFloors.REFUSED) {
            throw new IllegalArgumentException("Cannot remove orphan files younger than " + floor
                    + ": the age floor must be at least " + MINIMUM + " (a writer may not have committed them yet);"
                    + " raise " + setting + ", or set cryo.orphans.allow-unsafe-floor=true if every writer of every"
                    + " table commits sooner");
        }
    }

    private OrphanAgeFloors() {
    }
}
