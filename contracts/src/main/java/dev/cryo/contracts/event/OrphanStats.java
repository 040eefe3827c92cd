package dev.cryo.contracts.event;

import java.time.Duration;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * The last storage listing of the table location (counts only, never the file list).
 *
 * @param listedAt when the listing ran
 * @param listedFiles files found under the table location
 * @param orphanFiles files that no snapshot references and that are older than the age floor
 * @param orphanBytes their size
 * @param ageFloor files younger than this were ignored (they may belong to a commit in flight)
 */
public record OrphanStats(Instant listedAt, long listedFiles, long orphanFiles, long orphanBytes, Duration ageFloor) {
    public OrphanStats {
        requireNonNull(listedAt, "listedAt is null");
        Require.nonNegative(listedFiles, "listedFiles");
        Require.nonNegative(orphanFiles, "orphanFiles");
        Require.nonNegative(orphanBytes, "orphanBytes");
        requireNonNull(ageFloor, "ageFloor is null");
    }
}
