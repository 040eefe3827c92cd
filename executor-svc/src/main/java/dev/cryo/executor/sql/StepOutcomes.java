package dev.cryo.executor.sql;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.FileCounts;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.executor.engine.StepResult;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

import java.util.List;

/**
 * What an engine's statistics, manifest, expiry or orphan step changed, read from the table after it:
 * the statistics file of the current snapshot, data manifests before and after, snapshots and the
 * files under the table location.
 */
final class StepOutcomes {

    /** What an expiry or an orphan removal changed: snapshots, and files and bytes under the table location. */
    static StepResult removedFiles(Table table, Operation operation, OperationParameters parameters, Storage storageBefore,
                                    int snapshotsBefore, String ran, String guards, List<String> queryIds) {
        Storage storageAfter = Storage.of(table);
        int snapshotsAfter = count(table.snapshots());
        return new StepResult(storageBefore.counts(), storageAfter.counts(), null, 0, ran + "; snapshots "
                + snapshotsBefore + " -> " + snapshotsAfter + "; files under the table location "
                + storageBefore + " -> " + storageAfter + (operation == Operation.EXPIRE_SNAPSHOTS
                ? " (retention " + parameters.snapshotRetention() + ", retain last " + parameters.retainLast() + ")"
                : " (age floor " + parameters.orphanAgeFloor() + ")") + guards, List.of(), SqlEngine.joined(queryIds))
                .withChanged(changed(operation, snapshotsBefore, snapshotsAfter, storageBefore, storageAfter));
    }

    private static Boolean changed(Operation operation, int snapshotsBefore, int snapshotsAfter, Storage before, Storage after) {
        if (operation == Operation.EXPIRE_SNAPSHOTS) {
            return snapshotsAfter < snapshotsBefore;
        }
        return before.listed() && after.listed() ? before.files() != after.files() : null;
    }

    static StepResult statistics(Table table, String ran, List<String> queryIds) {
        Snapshot current = table.currentSnapshot();
        StatisticsFile file = table.statisticsFiles().stream()
                .filter(statistics -> statistics.snapshotId() == current.snapshotId()).findFirst().orElse(null);
        if (file == null) {
            // The engine may have registered statistics of the snapshot it read: whether it changed the table is not known.
            return new StepResult(FileCounts.ZERO, FileCounts.ZERO, null, 0, ran + "; no statistics file describes the"
                    + " current snapshot " + current.snapshotId() + " (a writer committed after it ran)", List.of(),
                    SqlEngine.joined(queryIds));
        }
        long records = Long.parseLong(EngineCommits.summary(current).getOrDefault("total-records", "0"));
        return new StepResult(FileCounts.ZERO, new FileCounts(0, file.fileSizeInBytes(), 0, records), null, 0, ran
                + "; statistics file " + file.path() + " (" + file.blobMetadata().size() + " blobs) for snapshot "
                + current.snapshotId(), List.of(), SqlEngine.joined(queryIds)).withChanged(true);
    }

    static StepResult manifests(Table table, Snapshot start, List<ManifestFile> before, String ran, List<String> queryIds) {
        List<Snapshot> commits = RewriteChecks.commitsBy(table, start, queryIds);
        List<ManifestFile> after = table.currentSnapshot().dataManifests(table.io());
        FileCounts beforeCounts = new FileCounts(before.size(), before.stream().mapToLong(ManifestFile::length).sum(), 0, 0);
        FileCounts afterCounts = new FileCounts(after.size(), after.stream().mapToLong(ManifestFile::length).sum(), 0, 0);
        return new StepResult(beforeCounts, afterCounts, commits.isEmpty() ? null : commits.get(commits.size() - 1).snapshotId(),
                0, ran + "; data manifests " + before.size() + " -> " + after.size()
                + (commits.isEmpty() ? ", nothing committed" : ", committed " + SqlEngine.ids(commits)), List.of(), SqlEngine.joined(queryIds))
                .withChanged(!commits.isEmpty());
    }

    static int count(Iterable<?> items) {
        int count = 0;
        for (Object ignored : items) {
            count++;
        }
        return count;
    }

    /** Files and bytes under the table location: what expiring snapshots and removing orphans shrink. */
    record Storage(long files, long bytes, boolean listed) {

        static Storage of(Table table) {
            if (!(table.io() instanceof SupportsPrefixOperations prefixes)) {
                return new Storage(0, 0, false);
            }
            long files = 0;
            long bytes = 0;
            String location = table.location().endsWith("/") ? table.location() : table.location() + "/";
            for (FileInfo file : prefixes.listPrefix(location)) {
                files++;
                bytes += file.size();
            }
            return new Storage(files, bytes, true);
        }

        FileCounts counts() {
            return new FileCounts(files, bytes, 0, 0);
        }

        @Override
        public String toString() {
            return listed ? files + " files / " + bytes + " bytes" : "not listed (the table's FileIO cannot list)";
        }
    }

    private StepOutcomes() {
    }
}
