package dev.cryo.executor.engine;

import dev.cryo.contracts.OrphanAgeFloors;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * The age floor of one orphan removal: the plan's or the executor's default, checked against
 * {@link OrphanAgeFloors}. A run below the minimum (only when {@code cryo.orphans.allow-unsafe-floor}
 * is true) says so in its result, so the audit log shows it.
 *
 * @param floor the floor the run uses
 * @param belowMinimum whether it is under {@link OrphanAgeFloors#MINIMUM}
 */
public record OrphanAgeFloor(Duration floor, boolean belowMinimum) {

    public OrphanAgeFloor {
        requireNonNull(floor, "floor is null");
    }

    /**
     * The floor to use: the requested one, or the default.
     *
     * @throws IllegalArgumentException when it is negative, or under the minimum and unsafe floors are refused
     */
    public static OrphanAgeFloor resolve(Duration requested, Duration defaultFloor, OrphanAgeFloors.UnsafeFloors unsafeFloors) {
        requireNonNull(defaultFloor, "defaultFloor is null");
        requireNonNull(unsafeFloors, "unsafeFloors is null");
        Duration floor = requested == null ? defaultFloor : requested;
        OrphanAgeFloors.check(floor, unsafeFloors, requested == null ? "cryo.executor.orphans.default-age-floor"
                : "the table policy's orphan age floor (cryo.planner.orphan-age-floor)");
        return new OrphanAgeFloor(floor, floor.compareTo(OrphanAgeFloors.MINIMUM) < 0);
    }

    /** The floor for people, flagged when it is under the minimum. */
    @Override
    public String toString() {
        return belowMinimum ? floor + " (below the " + OrphanAgeFloors.MINIMUM + " minimum: cryo.orphans.allow-unsafe-floor=true)"
                : floor.toString();
    }
}
