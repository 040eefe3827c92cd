package dev.cryo.scanner.domain;

import dev.cryo.contracts.event.OrphanStats;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Counts the files of a storage listing that no snapshot references. Files younger than the
 * age floor are never orphans: they may belong to a commit still in flight. Only counts are
 * kept, never the list.
 */
public final class OrphanCounter {

    private final Set<String> referenced;
    private final Instant listedAt;
    private final Duration ageFloor;
    private final Instant cutoff;
    private long listedFiles;
    private long orphanFiles;
    private long orphanBytes;

    /**
     * @param referenced every file any snapshot references, as {@link #normalize normalized} locations
     */
    public OrphanCounter(Set<String> referenced, Instant listedAt, Duration ageFloor) {
        this.referenced = requireNonNull(referenced, "referenced is null");
        this.listedAt = requireNonNull(listedAt, "listedAt is null");
        this.ageFloor = requireNonNull(ageFloor, "ageFloor is null");
        this.cutoff = listedAt.minus(ageFloor);
    }

    public void accept(String location, long sizeBytes, Instant createdAt) {
        listedFiles++;
        if (createdAt.isBefore(cutoff) && !referenced.contains(normalize(location))) {
            orphanFiles++;
            orphanBytes += sizeBytes;
        }
    }

    public OrphanStats result() {
        return new OrphanStats(listedAt, listedFiles, orphanFiles, orphanBytes, ageFloor);
    }

    /**
     * A location without its scheme, so that {@code file:/a}, {@code file:///a} and {@code /a}
     * are one file, and so are {@code s3://b/k} and {@code s3a://b/k}.
     */
    public static String normalize(String location) {
        String rest = location;
        int colon = location.indexOf(':');
        int slash = location.indexOf('/');
        if (colon > 0 && (slash < 0 || colon < slash)) {
            rest = location.substring(colon + 1);
        }
        if (rest.startsWith("///")) {
            rest = rest.substring(2);
        }
        return rest.replaceAll("(?<!^)/{2,}", "/");
    }
}
