package dev.cryo.contracts.event;

import java.time.Duration;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * The last storage listing of the table location (counts only, never the file list).
 *
 * @param listedAt when the listing ran
 * @param listedFiles files found under the table location, other tables' files not counted
 * @param orphanFiles files that no snapshot references and that are older than the age floor
 * @param orphanBytes their size
 * @param ageFloor files younger than this were ignored (they may belong to a commit in flight)
 * @param otherTablesFiles files under the location that lie in another table's folder (a table
 *                         nested in this one's location): never orphans; 0 when an older event has none
 * @param refusal why orphan removal refuses this table (its location is a bucket root or lies
 *                inside another table's folder), with nothing counted; null when it does not
 */
public record OrphanStats(Instant listedAt, long listedFiles, long orphanFiles, long orphanBytes, Duration ageFloor,
                          Long otherTablesFiles, String refusal) {
    public OrphanStats {
        requireNonNull(listedAt, "listedAt is null");
        Require.nonNegative(listedFiles, "listedFiles");
        Require.nonNegative(orphanFiles, "orphanFiles");
        Require.nonNegative(orphanBytes, "orphanBytes");
        requireNonNull(ageFloor, "ageFloor is null");
        // Absent in events written before it existed.
        otherTablesFiles = otherTablesFiles == null ? 0L : otherTablesFiles;
        Require.nonNegative(otherTablesFiles, "otherTablesFiles");
        if (refusal != null && orphanFiles > 0) {
            throw new IllegalArgumentException("orphanFiles must be 0 when orphan removal is refused, was " + orphanFiles);
        }
    }

    /** A listing with no other table under the location and no refusal. */
    public OrphanStats(Instant listedAt, long listedFiles, long orphanFiles, long orphanBytes, Duration ageFloor) {
        this(listedAt, listedFiles, orphanFiles, orphanBytes, ageFloor, 0L, null);
    }

    /** A table whose orphans are not counted because their removal is refused, and why. */
    public static OrphanStats refused(Instant listedAt, Duration ageFloor, String reason) {
        return new OrphanStats(listedAt, 0, 0, 0, ageFloor, 0L, requireNonNull(reason, "reason is null"));
    }
}
