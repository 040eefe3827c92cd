package dev.cryo.iceberg.orphan;

import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The one orphan model of Cryo: the scanner counts with it, the executor deletes with it, so the
 * grade and the deletion agree file for file.
 *
 * <p>Lists {@code location + "/"} through the table's own FileIO (so {@code …/db/events} never
 * lists {@code …/db/events_archive/}), skips what Iceberg skips (any folder or file under the
 * location whose name starts with {@code _} or {@code .}, unless it is the folder of a partition
 * field so named), and sorts every listed file into one of:
 * <ul>
 *   <li>referenced: the table's metadata references it ({@link ReachableFiles});</li>
 *   <li>a conflict: a referenced file has its path but a scheme or authority that is not declared
 *       {@link LocationEquivalence equivalent}: the same file under another name, or another file;
 *       Cryo cannot tell, so it deletes nothing at all;</li>
 *   <li>too young: created at or after the cutoff (a writer may not have committed it yet);</li>
 *   <li>outside: not under the table location once normalized (never a candidate);</li>
 *   <li>a candidate orphan: none of the above.</li>
 * </ul>
 */
public final class OrphanSearch {

    /** How many conflicting files a result keeps to name them; the count is always exact. */
    static final int CONFLICT_SAMPLE = 10;

    private final Table table;
    private final LocationEquivalence equivalence;
    private final SupportsPrefixOperations listing;
    private final FileLocation location;
    private final Set<String> hiddenPartitionFolders;

    private OrphanSearch(Table table, LocationEquivalence equivalence, SupportsPrefixOperations listing) {
        this.table = table;
        this.equivalence = equivalence;
        this.listing = listing;
        this.location = FileLocation.parse(table.location()).canonical(equivalence);
        this.hiddenPartitionFolders = hiddenPartitionFolders(table);
    }

    /**
     * A search of the table's location.
     *
     * @throws UnsupportedOperationException when the table's FileIO cannot list a prefix
     */
    public static OrphanSearch of(Table table, LocationEquivalence equivalence) {
        requireNonNull(table, "table is null");
        requireNonNull(equivalence, "equivalence is null");
        if (!(table.io() instanceof SupportsPrefixOperations listing)) {
            throw new UnsupportedOperationException("Cannot list the files of " + table.name() + ": its FileIO "
                    + table.io().getClass().getSimpleName() + " cannot list a prefix; configure an io-impl that can"
                    + " (HadoopFileIO, S3FileIO, ResolvingFileIO) for its catalog");
        }
        return new OrphanSearch(table, equivalence, listing);
    }

    /** The prefix that is listed: the table location with one trailing slash. */
    public String prefix() {
        String raw = table.location();
        return raw.endsWith("/") ? raw : raw + "/";
    }

    /**
     * Lists the location once and sorts every file; hands each candidate orphan to
     * {@code candidates} as it is found, so a caller that only counts keeps no list.
     *
     * @param reachable what the table references, read with the same equivalence
     * @param cutoff files created at or after this are too young to be orphans
     */
    public Listing list(ReachableFiles reachable, Instant cutoff, Consumer<FileInfo> candidates) {
        requireNonNull(reachable, "reachable is null");
        requireNonNull(cutoff, "cutoff is null");
        requireNonNull(candidates, "candidates is null");
        if (!reachable.equivalence().equals(equivalence)) {
            throw new IllegalArgumentException("Cannot search for orphans: the reachable files were read with another"
                    + " location equivalence");
        }
        long cutoffMillis = cutoff.toEpochMilli();
        Counter listed = new Counter();
        Counter referenced = new Counter();
        Counter young = new Counter();
        Counter orphans = new Counter();
        long hidden = 0;
        long outside = 0;
        long conflicts = 0;
        List<Conflict> conflictSample = new ArrayList<>();
        for (FileInfo file : listing.listPrefix(prefix())) {
            FileLocation found = FileLocation.parse(file.location()).canonical(equivalence);
            String relative = found.relativeTo(location);
            if (relative == null) {
                outside++;
                continue;
            }
            if (isHidden(relative)) {
                hidden++;
                continue;
            }
            listed.add(file);
            List<FileLocation> samePath = reachable.withPathOf(found);
            if (samePath.stream().anyMatch(found::sameStorage)) {
                referenced.add(file);
            } else if (!samePath.isEmpty()) {
                conflicts++;
                if (conflictSample.size() < CONFLICT_SAMPLE) {
                    conflictSample.add(new Conflict(file.location(), samePath.get(0).toString()));
                }
            } else if (file.createdAtMillis() >= cutoffMillis) {
                young.add(file);
            } else {
                orphans.add(file);
                candidates.accept(file);
            }
        }
        return new Listing(prefix(), listed.files, listed.bytes, referenced.files, young.files, orphans.files,
                orphans.bytes, hidden, outside, conflicts, conflictSample);
    }

    private boolean isHidden(String relative) {
        int start = 0;
        while (start < relative.length()) {
            int slash = relative.indexOf('/', start);
            int end = slash < 0 ? relative.length() : slash;
            char first = relative.charAt(start);
            if ((first == '_' || first == '.') && !isHiddenPartitionFolder(relative.substring(start, end))) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    private boolean isHiddenPartitionFolder(String name) {
        int equals = name.indexOf('=');
        return equals > 0 && hiddenPartitionFolders.contains(name.substring(0, equals));
    }

    private static Set<String> hiddenPartitionFolders(Table table) {
        Set<String> names = new HashSet<>();
        for (PartitionSpec spec : table.specs().values()) {
            for (PartitionField field : spec.fields()) {
                if (field.name().startsWith("_") || field.name().startsWith(".")) {
                    names.add(field.name());
                }
            }
        }
        return names;
    }

    /** A listed file whose path a referenced file has under another scheme or authority. */
    public record Conflict(String listed, String referenced) {
        public Conflict {
            requireNonNull(listed, "listed is null");
            requireNonNull(referenced, "referenced is null");
        }
    }

    /**
     * What one listing found.
     *
     * @param prefix the prefix listed
     * @param listedFiles files under the location that are not hidden
     * @param listedBytes their size
     * @param referencedFiles of those, files the metadata references
     * @param youngFiles unreferenced files created at or after the cutoff
     * @param orphanFiles candidate orphans
     * @param orphanBytes their size
     * @param hiddenFiles files skipped under hidden folders or with hidden names
     * @param outsideFiles files the listing returned that do not lie under the normalized location
     * @param conflictFiles files a referenced file shares the path of under another scheme or authority
     * @param conflicts up to {@value #CONFLICT_SAMPLE} of them
     */
    public record Listing(String prefix, long listedFiles, long listedBytes, long referencedFiles, long youngFiles,
                          long orphanFiles, long orphanBytes, long hiddenFiles, long outsideFiles, long conflictFiles,
                          List<Conflict> conflicts) {
        public Listing {
            requireNonNull(prefix, "prefix is null");
            conflicts = List.copyOf(conflicts);
        }

        /** The conflicts as one sentence naming the files, for an error message. */
        public String describeConflicts() {
            StringBuilder text = new StringBuilder();
            text.append(conflictFiles).append(conflictFiles == 1 ? " listed file has" : " listed files have")
                    .append(" the path of a file the table references under another scheme or authority (");
            for (int i = 0; i < conflicts.size(); i++) {
                if (i > 0) {
                    text.append("; ");
                }
                text.append(conflicts.get(i).listed()).append(" is referenced as ").append(conflicts.get(i).referenced());
            }
            if (conflictFiles > conflicts.size()) {
                text.append("; and ").append(conflictFiles - conflicts.size()).append(" more");
            }
            return text.append(')').toString();
        }
    }

    private static final class Counter {
        long files;
        long bytes;

        void add(FileInfo file) {
            files++;
            bytes += file.size();
        }
    }
}
