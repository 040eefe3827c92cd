package dev.cryo.executor.iceberg;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.FileCounts;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.OrphanAgeFloor;
import dev.cryo.executor.engine.OrphanBrakeReleases;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.iceberg.orphan.OrphanSearch;
import dev.cryo.iceberg.orphan.ReachableFiles;
import dev.cryo.iceberg.orphan.TableLocations;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsBulkOperations;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

import static java.util.Objects.requireNonNull;

/**
 * remove_orphan_files with {@link OrphanSearch}, the model the scanner counts with, so what the
 * grade counts is what goes. A file is deleted only when every one of these holds:
 * <ol>
 *   <li>the table allows garbage collection ({@code gc.enabled});</li>
 *   <li>every table of every configured catalog could be read, the table's location is no bucket or
 *       file system root and lies inside no other table's folder, and the file lies under no other
 *       table's folder ({@link TableLocations}, read at the first and at the last look);</li>
 *   <li>it lies under the table location (listed as {@code location + "/"}) and is not hidden;</li>
 *   <li>no snapshot of any branch or tag, no metadata file, no statistics file references it, under
 *       the same or an equivalent scheme and authority; a reference under another one stops the
 *       whole run before anything is deleted;</li>
 *   <li>no other spelling of its path occurs among the references or in the listing;</li>
 *   <li>it is older than the age floor, both when first listed and when listed again after the
 *       table was refreshed right before deleting (the last look), and no snapshot committed since
 *       the first listing references it;</li>
 *   <li>the candidates are at most {@code max-share} of the listed files and bytes, or an operator
 *       released the brake for this run.</li>
 * </ol>
 * Files go in batches, each after another look at the table when it changed, with progress in
 * the log.
 */
public final class OrphanRemover {

    private static final Logger LOG = Logger.getLogger(OrphanRemover.class);

    /** What a run does after finding the orphans. */
    public enum Mode {
        /** Reports the orphans and deletes nothing; the share brake is reported, not applied. */
        DRY_RUN,
        /**
         * Applies every guard (the share brake included, using up an operator's release) and deletes
         * nothing: the check before an engine that deletes by itself is asked to.
         */
        CHECK,
        /** Deletes them. */
        DELETE
    }

    private final Table table;
    private final OrphanRemovalSettings settings;
    private final Clock clock;
    private final Supplier<TableLocations> otherTables;
    private Runnable afterFirstLook = () -> { };

    /**
     * @param otherTables reads where the tables of the configured catalogs keep their files, now
     *                    ({@link TableLocations#read}); asked at the first and at the last look
     */
    public OrphanRemover(Table table, OrphanRemovalSettings settings, Clock clock, Supplier<TableLocations> otherTables) {
        this.table = requireNonNull(table, "table is null");
        this.settings = requireNonNull(settings, "settings is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.otherTables = requireNonNull(otherTables, "otherTables is null");
    }

    /** Runs between the first listing and the last look: tests use it to commit as a late writer would, at the worst moment. */
    OrphanRemover afterFirstLook(Runnable action) {
        this.afterFirstLook = requireNonNull(action, "action is null");
        return this;
    }

    /**
     * Finds the orphans and, in {@link Mode#DELETE}, deletes them.
     *
     * @param releases asked only when the share brake would stop the run
     */
    public StepResult remove(OrphanAgeFloor floor, Mode mode, TableId tableId, String jobId, OrphanBrakeReleases releases) {
        table.refresh();
        ExpiryGuard.requireGarbageCollection(table, "remove orphan files");
        ReachableFiles reachable = ReachableFiles.of(table, settings.equivalence());
        Look first = look(reachable, floor);

        String brake = settings.brake().stops(first.listing.listedFiles(), first.listing.listedBytes(),
                first.listing.orphanFiles(), first.listing.orphanBytes()).orElse(null);
        String summary = first.listing.orphanFiles() + " orphan files (" + first.listing.orphanBytes() + " bytes) of "
                + first.listing.listedFiles() + " listed under " + first.listing.prefix() + ", age floor " + floor
                + skipped(first.listing);
        if (mode == Mode.DRY_RUN) {
            List<String> locations = first.locations();
            return new StepResult(first.counts(), first.counts(), null, 0, "dry run: would delete " + summary
                    + (brake == null ? "" : "; the share brake would stop a real run: " + brake), locations).withChanged(false);
        }
        String released = "";
        if (brake != null) {
            Optional<OrphanBrakeReleases.Release> release = releases.take(tableId, jobId);
            if (release.isEmpty()) {
                throw new CryoException(ExecutorErrorCode.ORPHAN_SHARE_BRAKE, "Cannot remove orphan files of "
                        + table.name() + ": " + brake + "; nothing was deleted. See the files with GET /api/v1/tables/"
                        + tableId + "/orphans on the executor; if they may all go, release the brake for the next run with"
                        + " POST /api/v1/tables/" + tableId + "/orphans/brake-release, or raise cryo.executor.orphans.max-share");
            }
            released = "; share brake (" + brake + ") " + release.get();
            LOG.warnf("%s: orphan share brake %s for job %s: %s", table.name(), release.get(), jobId, brake);
        }
        if (floor.belowMinimum()) {
            LOG.warnf("%s: removing orphan files with the age floor %s", table.name(), floor);
        }
        if (mode == Mode.CHECK) {
            if (!first.inside.isEmpty()) {
                throw new CryoException(ExecutorErrorCode.SHARED_LOCATION, "Cannot have an engine remove the orphan"
                        + " files of " + table.name() + ": other tables keep files under its location (" + names(first.inside)
                        + "), and an engine's remove_orphan_files would delete them; nothing was deleted. Run the step"
                        + " on the native engine, which leaves them alone");
            }
            return new StepResult(first.counts(), FileCounts.ZERO, null, 0, "checked: " + summary + released,
                    first.locations()).withChanged(false);
        }

        afterFirstLook.run();
        // The last look: what committed since the first listing references, and what was written again since.
        table.refresh();
        reachable.update(table);
        Look last = look(reachable, floor);
        Map<String, FileInfo> doomed = new LinkedHashMap<>();
        int changed = 0;
        for (FileInfo candidate : first.candidates) {
            FileInfo now = last.byLocation.get(candidate.location());
            if (now != null && now.createdAtMillis() == candidate.createdAtMillis()) {
                doomed.put(candidate.location(), now);
            } else {
                changed++;
            }
        }
        Deleted deleted = delete(doomed, reachable);
        String message = "deleted " + deleted.files.size() + " orphan files (" + deleted.bytes + " bytes) of "
                + first.listing.listedFiles() + " listed under " + first.listing.prefix() + ", age floor " + floor
                + skipped(first.listing) + lastLook(changed, deleted) + released;
        LOG.infof("%s: %s", table.name(), message);
        return new StepResult(first.counts(), FileCounts.ZERO, null, 0, message, deleted.files)
                .withChanged(!deleted.files.isEmpty());
    }

    /**
     * One listing and its candidates, oldest first; the other tables are read first. A refusal or a
     * conflict stops the run here, before any deletion.
     */
    private Look look(ReachableFiles reachable, OrphanAgeFloor floor) {
        OrphanSearch search;
        try {
            search = OrphanSearch.of(table, settings.equivalence(), otherTables.get());
        } catch (UnsupportedOperationException e) {
            throw new CryoException(ExecutorErrorCode.REFUSED_BY_TABLE_SETTINGS, "Cannot remove orphan files: "
                    + e.getMessage(), e);
        } catch (OrphanSearch.Refused e) {
            throw new CryoException(ExecutorErrorCode.SHARED_LOCATION, e.getMessage(), e);
        } catch (TableLocations.Unreadable e) {
            throw new CryoException(ExecutorErrorCode.STORAGE_FAILURE, "Cannot remove orphan files of " + table.name()
                    + ": " + e.getMessage() + "; without every table's folders any file could be another table's,"
                    + " so nothing was deleted", e);
        }
        Instant cutoff = clock.instant().minus(floor.floor());
        List<FileInfo> candidates = new ArrayList<>();
        OrphanSearch.Listing listing;
        try {
            listing = search.list(reachable, cutoff, candidates::add);
        } catch (RuntimeException e) {
            throw TableFiles.storageFailure(table, "list the files under the location", e);
        }
        if (listing.conflicted()) {
            throw new CryoException(ExecutorErrorCode.LOCATION_MISMATCH, "Cannot remove orphan files of " + table.name()
                    + ": " + listing.describeConflicts() + ". Cryo cannot tell whether these are the referenced files"
                    + " under another name, so nothing was deleted");
        }
        candidates.sort(Comparator.comparingLong(FileInfo::createdAtMillis).thenComparing(FileInfo::location));
        return new Look(listing, candidates, search.inside());
    }

    /** Deletes in batches; before each batch after the first, takes any newer commit's references out. */
    private Deleted delete(Map<String, FileInfo> doomed, ReachableFiles reachable) {
        List<FileInfo> remaining = new ArrayList<>(doomed.values());
        Deleted deleted = new Deleted();
        String metadataSeen = metadataLocation();
        int total = remaining.size();
        for (int start = 0; start < remaining.size(); start += settings.deleteBatchSize()) {
            List<FileInfo> batch = remaining.subList(start, Math.min(start + settings.deleteBatchSize(), remaining.size()));
            if (start > 0) {
                table.refresh();
                String metadataNow = metadataLocation();
                if (metadataNow == null || !metadataNow.equals(metadataSeen)) {
                    reachable.update(table);
                    metadataSeen = metadataNow;
                }
            }
            List<FileInfo> unreferenced = new ArrayList<>(batch.size());
            for (FileInfo file : batch) {
                if (reachable.references(file.location())) {
                    deleted.keptForNewerSnapshot++;
                } else {
                    unreferenced.add(file);
                }
            }
            deleteBatch(unreferenced, deleted);
            LOG.infof("%s: deleted %d of %d orphan files (%d bytes so far)", table.name(), deleted.files.size(), total,
                    deleted.bytes);
        }
        return deleted;
    }

    private void deleteBatch(List<FileInfo> batch, Deleted deleted) {
        List<String> locations = batch.stream().map(FileInfo::location).toList();
        if (table.io() instanceof SupportsBulkOperations bulk) {
            try {
                bulk.deleteFiles(locations);
                batch.forEach(deleted::add);
            } catch (BulkDeletionFailureException e) {
                // The bulk API does not say which failed: count them as not deleted, and name none as deleted.
                deleted.failed += e.numberFailedObjects();
                LOG.warnf("%s: %d of %d orphan files of a batch could not be deleted: %s", table.name(),
                        e.numberFailedObjects(), batch.size(), e.getMessage());
            }
            return;
        }
        for (FileInfo file : batch) {
            try {
                table.io().deleteFile(file.location());
                deleted.add(file);
            } catch (RuntimeException e) {
                deleted.failed++;
                LOG.warnf("%s: cannot delete orphan file %s: %s", table.name(), file.location(), e.getMessage());
            }
        }
    }

    private String metadataLocation() {
        return table instanceof HasTableOperations operations && operations.operations().current() != null
                ? operations.operations().current().metadataFileLocation() : null;
    }

    private static String skipped(OrphanSearch.Listing listing) {
        List<String> parts = new ArrayList<>();
        if (listing.hiddenFiles() > 0) {
            parts.add(listing.hiddenFiles() + " hidden");
        }
        if (listing.youngFiles() > 0) {
            parts.add(listing.youngFiles() + " unreferenced but younger than the floor or of unknown age");
        }
        if (listing.otherTablesFiles() > 0 || !listing.otherTables().isEmpty()) {
            parts.add(listing.otherTablesFiles() + " under the folders of other tables: " + names(listing.otherTables()));
        }
        if (listing.outsideFiles() > 0) {
            parts.add(listing.outsideFiles() + " outside the table location");
        }
        return parts.isEmpty() ? "" : " (kept: " + String.join(", ", parts) + ")";
    }

    private static String lastLook(int changed, Deleted deleted) {
        List<String> parts = new ArrayList<>();
        if (changed > 0) {
            parts.add(changed + " candidates kept because a newer snapshot references them or they changed since the listing");
        }
        if (deleted.keptForNewerSnapshot > 0) {
            parts.add(deleted.keptForNewerSnapshot + " kept because a snapshot committed during the deletion references them");
        }
        if (deleted.failed > 0) {
            parts.add(deleted.failed + " could not be deleted (see the executor log)");
        }
        return parts.isEmpty() ? "" : "; " + String.join("; ", parts);
    }

    private static String names(List<TableLocations.Root> roots) {
        return roots.stream().map(TableLocations.Root::toString).collect(Collectors.joining(", "));
    }

    private record Look(OrphanSearch.Listing listing, List<FileInfo> candidates, Map<String, FileInfo> byLocation,
                        List<TableLocations.Root> inside) {

        Look(OrphanSearch.Listing listing, List<FileInfo> candidates, List<TableLocations.Root> inside) {
            this(listing, candidates, index(candidates), inside);
        }

        private static Map<String, FileInfo> index(List<FileInfo> candidates) {
            Map<String, FileInfo> byLocation = new LinkedHashMap<>();
            candidates.forEach(file -> byLocation.put(file.location(), file));
            return byLocation;
        }

        FileCounts counts() {
            return new FileCounts(listing.orphanFiles(), listing.orphanBytes(), 0, 0);
        }

        List<String> locations() {
            return candidates.stream().map(FileInfo::location).toList();
        }
    }

    private static final class Deleted {
        final List<String> files = new ArrayList<>();
        long bytes;
        int keptForNewerSnapshot;
        long failed;

        void add(FileInfo file) {
            files.add(file.location());
            bytes += file.size();
        }
    }
}
