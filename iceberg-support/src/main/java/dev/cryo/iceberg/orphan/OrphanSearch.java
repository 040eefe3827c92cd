package dev.cryo.iceberg.orphan;

import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The one orphan model of Cryo: the scanner counts with it, the executor deletes with it, so the
 * grade and the deletion agree file for file.
 *
 * <p>Refuses a table whose location is a bucket or file system root, or lies inside a folder of
 * another table ({@link TableLocations}). Otherwise lists {@code location + "/"} through the
 * table's own FileIO (so {@code …/db/events} never lists {@code …/db/events_archive/}), skips what
 * Iceberg skips (any folder or file under the location whose name starts with {@code _} or
 * {@code .}, unless it is the folder of a partition field so named), and sorts every listed file,
 * its path in {@link FileLocation canonical form}, into one of:
 * <ul>
 *   <li>another table's: it lies under a folder of another table (its location, data or metadata
 *       path, or a folder of its metadata log): never a candidate;</li>
 *   <li>referenced: the table's metadata references it ({@link ReachableFiles});</li>
 *   <li>a conflict: a referenced file has its path but a scheme or authority that is not declared
 *       {@link LocationEquivalence equivalent}, or two spellings of its path occur (in the
 *       listing, or among the references): the same file under another name, or another file;
 *       Cryo cannot tell, so it deletes nothing at all;</li>
 *   <li>too young: created at or after the cutoff (a writer may not have committed it yet), or of
 *       unknown age (a listing without modification times);</li>
 *   <li>outside: not under the table location once canonical (never a candidate);</li>
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
    private final List<TableLocations.Root> inside;
    /** Canonical paths of the other tables' folders under the location. */
    private final Set<String> insidePaths = new HashSet<>();

    private OrphanSearch(Table table, LocationEquivalence equivalence, SupportsPrefixOperations listing,
                         List<TableLocations.Root> inside) {
        this.table = table;
        this.equivalence = equivalence;
        this.listing = listing;
        this.location = FileLocation.parse(table.location()).canonical(equivalence);
        this.hiddenPartitionFolders = hiddenPartitionFolders(table);
        this.inside = List.copyOf(inside);
        inside.forEach(root -> insidePaths.add(FileLocation.parse(root.location()).path()));
    }

    /**
     * A search of the table's location, among the other tables of {@code others}.
     *
     * @throws UnsupportedOperationException when the table's FileIO cannot list a prefix
     * @throws Refused when the location is a root or lies inside another table's folder
     */
    public static OrphanSearch of(Table table, LocationEquivalence equivalence, TableLocations others) {
        requireNonNull(table, "table is null");
        requireNonNull(equivalence, "equivalence is null");
        requireNonNull(others, "others is null");
        if (!(table.io() instanceof SupportsPrefixOperations listing)) {
            throw new UnsupportedOperationException("Cannot list the files of " + table.name() + ": its FileIO "
                    + table.io().getClass().getSimpleName() + " cannot list a prefix; configure an io-impl that can"
                    + " (HadoopFileIO, S3FileIO, ResolvingFileIO) for its catalog");
        }
        TableLocations.Neighbours neighbours = others.around(table, equivalence);
        if (neighbours.refusal() != null) {
            throw new Refused("Cannot search " + table.name() + " for orphan files: " + neighbours.refusal()
                    + "; Cryo deletes nothing there. Give the table a location of its own (ALTER TABLE ... SET"
                    + " LOCATION, or a new table) to have its orphans removed");
        }
        return new OrphanSearch(table, equivalence, listing, neighbours.inside());
    }

    /** Other tables' folders under the location: their files are never candidates. */
    public List<TableLocations.Root> inside() {
        return inside;
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
        long others = 0;
        long conflicts = 0;
        List<LocationConflict.Scheme> conflictSample = new ArrayList<>();
        Spellings spellings = new Spellings(reachable.spellingConflicts(), reachable.spellingConflictCount());
        Map<String, String> irregular = new HashMap<>();
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
            if (underAnotherTable(found.path())) {
                others++;
                continue;
            }
            if (!FileLocation.isCanonicallySpelled(file.location())) {
                String before = irregular.putIfAbsent(found.path(), file.location());
                if (before != null && !before.equals(file.location())) {
                    spellings.add(before, file.location());
                }
            }
            listed.add(file);
            List<FileLocation> samePath = reachable.withPathOf(found);
            if (samePath.stream().anyMatch(found::sameStorage)) {
                referenced.add(file);
            } else if (!samePath.isEmpty()) {
                conflicts++;
                if (conflictSample.size() < CONFLICT_SAMPLE) {
                    conflictSample.add(new LocationConflict.Scheme(file.location(), samePath.get(0).toString()));
                }
            } else if (file.createdAtMillis() <= 0 || file.createdAtMillis() >= cutoffMillis) {
                // No modification time (0, or none at all) is no age: never old enough.
                young.add(file);
            } else {
                orphans.add(file);
                candidates.accept(file);
            }
        }
        if (!irregular.isEmpty()) {
            // A file spelled the canonical way has no entry above: a second listing finds those that share a path.
            for (FileInfo file : listing.listPrefix(prefix())) {
                FileLocation found = FileLocation.parse(file.location()).canonical(equivalence);
                String other = irregular.get(found.path());
                if (other != null && FileLocation.isCanonicallySpelled(file.location())) {
                    spellings.add(other, file.location());
                }
            }
        }
        return new Listing(prefix(), listed.files, listed.bytes, referenced.files, young.files, orphans.files,
                orphans.bytes, hidden, outside, others, inside, conflicts, conflictSample, spellings.count, spellings.sample);
    }

    private boolean underAnotherTable(String path) {
        if (insidePaths.isEmpty()) {
            return false;
        }
        for (int slash = path.indexOf('/', location.path().length() + 1); slash > 0; slash = path.indexOf('/', slash + 1)) {
            if (insidePaths.contains(path.substring(0, slash))) {
                return true;
            }
        }
        return insidePaths.contains(path);
    }

    /** Two spellings of one canonical path, up to {@value #CONFLICT_SAMPLE} of them kept; the count is exact. */
    private static final class Spellings {
        final List<LocationConflict.Spelling> sample;
        long count;

        Spellings(List<LocationConflict.Spelling> fromReferences, long countFromReferences) {
            this.sample = new ArrayList<>(fromReferences);
            this.count = countFromReferences;
        }

        void add(String first, String second) {
            count++;
            if (sample.size() < CONFLICT_SAMPLE) {
                sample.add(new LocationConflict.Spelling(first, second));
            }
        }
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

    /**
     * What one listing found.
     *
     * @param prefix the prefix listed
     * @param listedFiles files under the location that are not hidden and not another table's
     * @param listedBytes their size
     * @param referencedFiles of those, files the metadata references
     * @param youngFiles unreferenced files created at or after the cutoff, or of unknown age
     * @param orphanFiles candidate orphans
     * @param orphanBytes their size
     * @param hiddenFiles files skipped under hidden folders or with hidden names
     * @param outsideFiles files the listing returned that do not lie under the canonical location
     * @param otherTablesFiles files under another table's folder, never candidates
     * @param otherTables those folders
     * @param conflictFiles files a referenced file shares the path of under another scheme or authority
     * @param conflicts up to {@value #CONFLICT_SAMPLE} of them
     * @param spellingConflictCount paths spelled two ways among the references or in the listing
     * @param spellingConflicts up to {@value #CONFLICT_SAMPLE} of them
     */
    public record Listing(String prefix, long listedFiles, long listedBytes, long referencedFiles, long youngFiles,
                          long orphanFiles, long orphanBytes, long hiddenFiles, long outsideFiles, long otherTablesFiles,
                          List<TableLocations.Root> otherTables, long conflictFiles, List<LocationConflict.Scheme> conflicts,
                          long spellingConflictCount, List<LocationConflict.Spelling> spellingConflicts) {
        public Listing {
            requireNonNull(prefix, "prefix is null");
            otherTables = List.copyOf(otherTables);
            conflicts = List.copyOf(conflicts);
            spellingConflicts = List.copyOf(spellingConflicts);
        }

        /** Whether Cryo cannot tell some listed file from a referenced one: nothing may be deleted. */
        public boolean conflicted() {
            return conflictFiles > 0 || spellingConflictCount > 0;
        }

        /** The conflicts as sentences naming the files and what to do, for an error message. */
        public String describeConflicts() {
            List<String> parts = new ArrayList<>();
            if (conflictFiles > 0) {
                parts.add(sample(conflictFiles, conflictFiles == 1 ? " listed file has" : " listed files have",
                        " the path of a file the table references under another scheme or authority (",
                        conflicts.stream().map(conflict -> conflict.listed() + " is referenced as " + conflict.referenced()).toList())
                        + "; if the schemes or authorities name the same storage, declare them equivalent with"
                        + " cryo.orphans.equivalent-schemes or cryo.orphans.equivalent-authorities");
            }
            if (spellingConflictCount > 0) {
                parts.add(sample(spellingConflictCount, spellingConflictCount == 1 ? " path is" : " paths are",
                        " spelled two ways (", spellingConflicts.stream()
                                .map(conflict -> conflict.first() + " and " + conflict.second()).toList())
                        + ": with percent-escapes, '.', '..' and repeated slashes resolved they are one path, which"
                        + " object stores may hold as two objects; rename or remove the one nothing references");
            }
            return String.join("; ", parts);
        }

        private static String sample(long count, String verb, String what, List<String> named) {
            String more = count > named.size() ? "; and " + (count - named.size()) + " more" : "";
            return count + verb + what + String.join("; ", named) + more + ")";
        }
    }

    /** The table must not be searched: its location is a root, or lies inside another table's folder. */
    public static final class Refused extends IllegalStateException {
        Refused(String message) {
            super(message);
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
