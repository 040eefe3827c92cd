package dev.cryo.scanner.iceberg;

import dev.cryo.contracts.event.OrphanStats;
import dev.cryo.iceberg.orphan.LocationEquivalence;
import dev.cryo.iceberg.orphan.OrphanSearch;
import dev.cryo.iceberg.orphan.ReachableFiles;
import dev.cryo.iceberg.orphan.TableLocations;
import org.apache.iceberg.Table;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * Counts a table's orphan files with {@link OrphanSearch}, the model the executor deletes with:
 * the same listing ({@code location + "/"}, hidden folders skipped), the same references (every
 * snapshot of every branch and tag, delete manifests included) and the same equivalences, so the
 * count the grade shows is what remove_orphan_files would delete, other tables' folders left out
 * and the same tables refused. Names, sizes and times only,
 * never file contents; counts only, never the list.
 */
public final class OrphanLister {

    private final Clock clock;
    private final LocationEquivalence equivalence;

    public OrphanLister(Clock clock, LocationEquivalence equivalence) {
        this.clock = requireNonNull(clock, "clock is null");
        this.equivalence = requireNonNull(equivalence, "equivalence is null");
    }

    /**
     * @param others where the tables of the configured catalogs keep their files ({@link TableLocations#read})
     * @return the counts, or a refusal with nothing counted when the table's location is a root or
     *         lies inside another table's folder (the executor refuses such a table too)
     * @throws UnsupportedOperationException when the table's FileIO cannot list a prefix
     * @throws IllegalStateException when listed files share paths with referenced files under another
     *                               scheme or authority, or a path is spelled two ways: the executor
     *                               would delete nothing, so no count is honest
     */
    public OrphanStats list(Table table, Duration ageFloor, TableLocations others) {
        Instant listedAt = clock.instant();
        OrphanSearch search;
        try {
            search = OrphanSearch.of(table, equivalence, others);
        } catch (OrphanSearch.Refused e) {
            return OrphanStats.refused(listedAt, ageFloor, e.getMessage());
        }
        OrphanSearch.Listing listing = search.list(ReachableFiles.of(table, equivalence), listedAt.minus(ageFloor), file -> {
        });
        if (listing.conflicted()) {
            throw new IllegalStateException("Cannot count the orphan files of " + table.name() + ": "
                    + listing.describeConflicts() + "; remove_orphan_files refuses such a table until that is resolved");
        }
        return new OrphanStats(listedAt, listing.listedFiles(), listing.orphanFiles(), listing.orphanBytes(), ageFloor,
                listing.otherTablesFiles(), null);
    }
}
