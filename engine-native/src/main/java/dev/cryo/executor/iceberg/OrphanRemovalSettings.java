package dev.cryo.executor.iceberg;

import dev.cryo.contracts.OrphanAgeFloors;
import dev.cryo.executor.engine.OrphanAgeFloor;
import dev.cryo.executor.engine.OrphanShareBrake;
import dev.cryo.iceberg.orphan.LocationEquivalence;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * How remove_orphan_files runs, on every engine.
 *
 * @param defaultAgeFloor files younger than this are never orphans, unless the plan says otherwise
 * @param unsafeFloors whether floors under {@link OrphanAgeFloor#MINIMUM} are allowed
 * @param equivalence which schemes and authorities name the same storage
 * @param brake the share of listed files or bytes a run deletes without an operator's release
 * @param deleteBatchSize files deleted at once; the table is looked at again between batches
 * @param dryRun only report, delete nothing
 */
public record OrphanRemovalSettings(Duration defaultAgeFloor, OrphanAgeFloors.UnsafeFloors unsafeFloors,
                                    LocationEquivalence equivalence, OrphanShareBrake brake, int deleteBatchSize,
                                    boolean dryRun) {

    /** The defaults: a three-day floor, no unsafe floors, s3/s3a/s3n equivalent, a 50 % brake, batches of 1000. */
    public static final OrphanRemovalSettings DEFAULTS = new OrphanRemovalSettings(Duration.ofDays(3),
            OrphanAgeFloors.UnsafeFloors.REFUSED, LocationEquivalence.DEFAULT, new OrphanShareBrake(0.5), 1000, false);

    public OrphanRemovalSettings {
        requireNonNull(defaultAgeFloor, "defaultAgeFloor is null");
        requireNonNull(unsafeFloors, "unsafeFloors is null");
        requireNonNull(equivalence, "equivalence is null");
        requireNonNull(brake, "brake is null");
        if (deleteBatchSize < 1) {
            throw new IllegalArgumentException("Cannot delete orphans in batches of " + deleteBatchSize
                    + ": cryo.executor.orphans.delete-batch-size must be at least 1");
        }
        // A default floor under the minimum fails the executor's start, not its first job.
        OrphanAgeFloor.resolve(null, defaultAgeFloor, unsafeFloors);
    }

    /** The floor of one run: the plan's, or the default. */
    public OrphanAgeFloor floor(Duration planned) {
        return OrphanAgeFloor.resolve(planned, defaultAgeFloor, unsafeFloors);
    }

}
