package dev.cryo.executor.iceberg;

import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.iceberg.RewriteOutput.Run;
import dev.cryo.iceberg.commit.CommitOutcome;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jboss.logging.Logger;

/**
 * The commit side of a chunk's rewrite: replaces the planned files by the new ones in one tagged
 * snapshot, validating from the start snapshot and keeping its data sequence number, and drops
 * the delete files that only the replaced files needed.
 *
 * <p>When a concurrent writer deleted rows (position deletes or deletion vectors) from a replaced
 * file since the start, the commit fails validation; the rewrite is then rebased instead of thrown
 * away: every row written came from a known (file, position), so the newly deleted positions are
 * mapped onto the new files, written as their position deletes, and the commit is tried again from
 * the newer snapshot. When a replaced file itself is gone (another rewrite won), or the attempts
 * run out, the new files are deleted and the caller plans the chunk again.
 *
 * <p>Files are deleted only after a failure {@link CommitOutcome} calls clean. After any other
 * failure (a lost catalog connection, an interrupt, a timeout) every file stays: the table's history
 * is read once more, and a snapshot carrying the chunk's tags means the commit landed.
 */
final class RewriteCommit {

    private static final Logger LOG = Logger.getLogger(RewriteCommit.class);

    private final Table table;
    private final RewriteSettings settings;
    private final Map<String, String> tags;
    private final Runnable beforeCommit;

    RewriteCommit(Table table, RewriteSettings settings, Map<String, String> tags, Runnable beforeCommit) {
        this.table = table;
        this.settings = settings;
        this.tags = tags;
        this.beforeCommit = beforeCommit;
    }

    /**
     * The result of committing: the snapshot (null when the chunk must be planned again), the
     * attempts beyond the first, and the delete files removed and added.
     */
    record Attempt(Long snapshotId, int retries, int removedDeletes, int addedDeletes, long rebasedDeletes) {
    }

    Attempt commit(RewritePlan plan, RewriteOutput written) {
        Set<String> replaced = new HashSet<>();
        plan.replaced().forEach(task -> replaced.add(task.file().location()));
        Set<String> appliedAtStart = new HashSet<>();
        plan.replaced().forEach(task -> task.deletes().forEach(delete -> appliedAtStart.add(delete.location())));
        Snapshot base = plan.start();
        Map<String, FileScanTask> live = liveTasks(base, plan.scope());
        List<DeleteFile> rebased = List.of();
        long rebasedRows = 0;
        for (int attempt = 1; ; attempt++) {
            Removal removal = removal(live, replaced, appliedAtStart, plan.scope());
            List<DeleteFile> kept = keepForOtherFiles(removal.split(), replaced);
            RewriteFiles rewrite = rewrite(plan, written, base, removal, rebased, kept);
            try {
                beforeCommit.run();
            } catch (RuntimeException e) {
                // Not attempted: nothing can have been committed.
                TableFiles.deleteAllQuietly(table, List.of(written.files(), rebased, kept));
                throw e;
            }
            Long landed = null;
            try {
                rewrite.commit();
            } catch (ValidationException e) {
                TableFiles.deleteQuietly(table, rebased);
                TableFiles.deleteQuietly(table, kept);
                table.refresh();
                Snapshot current = table.currentSnapshot();
                Map<String, FileScanTask> nowLive = liveTasks(current, plan.scope());
                if (!nowLive.keySet().containsAll(replaced) || attempt >= settings.maxCommitAttempts()) {
                    LOG.infof("%s: rewrite of %s conflicts (%s); %s", table.name(), plan.scope(), e.getMessage(),
                            attempt >= settings.maxCommitAttempts() ? "out of commit attempts" : "a replaced file is gone");
                    TableFiles.deleteQuietly(table, written.files());
                    return new Attempt(null, attempt, 0, 0, 0);
                }
                LOG.debugf("%s: rebasing the rewrite of %s onto snapshot %d: %s", table.name(), plan.scope(),
                        current.snapshotId(), e.getMessage());
                Rebase rebase = rebase(written, replaced, nowLive);
                rebased = rebase.deletes();
                rebasedRows = rebase.rows();
                base = current;
                live = nowLive;
                ChunkRewriter.sleep(settings.backoff().delay(attempt).dividedBy(4));
                continue;
            } catch (RuntimeException e) {
                if (CommitOutcome.of(e).mayCleanUp()) {
                    TableFiles.deleteAllQuietly(table, List.of(written.files(), rebased, kept));
                    throw e;
                }
                landed = new TaggedCommit(table, settings, tags).reconcile(plan.scope(), e);
                if (landed == null) {
                    throw TableFiles.commitStateUnknown(table, "the rewrite of " + plan.scope(), "every file written for"
                            + " it is kept (unreferenced, they are orphans that remove_orphan_files collects after the"
                            + " age floor)", e);
                }
            }
            return new Attempt(landed != null ? landed : committedSnapshot(), attempt - 1,
                    removal.removed().size() + removal.split().size(), rebased.size() + kept.size(), rebasedRows);
        }
    }

    /**
     * The rewrite as one commit, validated from {@code base}: the replaced data files and the delete
     * files that applied only to them go, the written files (with the start's data sequence number, so
     * deletes committed meanwhile still apply to them), the rebased deletes and the deletes kept for
     * other files come in, tagged with the job.
     */
    private RewriteFiles rewrite(RewritePlan plan, RewriteOutput written, Snapshot base, Removal removal,
                                 List<DeleteFile> rebased, List<DeleteFile> kept) {
        RewriteFiles rewrite = table.newRewrite()
                .validateFromSnapshot(base.snapshotId())
                .dataSequenceNumber(plan.start().sequenceNumber());
        plan.replaced().forEach(task -> rewrite.deleteFile(task.file()));
        removal.removed().forEach(rewrite::deleteFile);
        removal.split().forEach(rewrite::deleteFile);
        written.files().forEach(rewrite::addFile);
        rebased.forEach(rewrite::addFile);
        kept.forEach(rewrite::addFile);
        tags.forEach(rewrite::set);
        return rewrite;
    }

    private Long committedSnapshot() {
        Long committed = new TaggedCommit(table, settings, tags).snapshot();
        if (committed == null) {
            throw new CryoException(ExecutorErrorCode.ENGINE_FAILURE, "Cannot find the snapshot just committed to "
                    + table.name() + " with tags " + tags);
        }
        return committed;
    }

    /** Live data files of the scope at a snapshot, by location, with the deletes that apply to them. */
    private Map<String, FileScanTask> liveTasks(Snapshot snapshot, PartitionScope scope) {
        Map<String, FileScanTask> live = new LinkedHashMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(snapshot.snapshotId())
                .filter(scope.filter()).planFiles()) {
            for (FileScanTask task : tasks) {
                if (scope.contains(task.file())) {
                    live.put(task.file().location(), task);
                }
            }
        } catch (IOException e) {
            throw TableFiles.storageFailure(table, "plan the chunk", e);
        }
        return live;
    }

    /**
     * Delete files to drop with the rewrite. {@code removed}: delete files that only replaced data
     * files still need — every live data file they apply to is replaced, they lie in an addressed
     * partition (never a global equality delete), and the rewrite applied them, either at the
     * start snapshot or, for position deletes that arrived since, by rebasing them onto the new
     * files. {@code split}: position delete files that also apply to data files this rewrite keeps;
     * they are replaced by a copy holding only the rows of those kept files (Iceberg only lets a
     * rewrite add delete files when it also replaces some, and the replaced files' rows of them
     * are applied already). Newer equality deletes stay: they apply to the new files through the
     * start snapshot's data sequence number.
     */
    private record Removal(List<DeleteFile> removed, List<DeleteFile> split) {
    }

    private static Removal removal(Map<String, FileScanTask> live, Set<String> replaced, Set<String> appliedAtStart,
                                   PartitionScope scope) {
        Map<String, DeleteFile> candidates = new LinkedHashMap<>();
        Set<String> blocked = new HashSet<>();
        for (FileScanTask task : live.values()) {
            boolean isReplaced = replaced.contains(task.file().location());
            for (DeleteFile delete : task.deletes()) {
                if (isReplaced) {
                    candidates.putIfAbsent(delete.location(), delete);
                } else {
                    blocked.add(delete.location());
                }
            }
        }
        List<DeleteFile> removed = new ArrayList<>();
        List<DeleteFile> split = new ArrayList<>();
        for (DeleteFile delete : candidates.values()) {
            boolean position = delete.content() == FileContent.POSITION_DELETES;
            boolean applied = appliedAtStart.contains(delete.location()) || position;
            if (!applied || !scope.contains(delete)) {
                continue;
            }
            if (!blocked.contains(delete.location())) {
                removed.add(delete);
            } else if (position && delete.format() == FileFormat.PARQUET) {
                split.add(delete);
            }
        }
        return new Removal(removed, split);
    }

    /** Copies of position delete files with only the rows of data files the rewrite keeps. */
    private List<DeleteFile> keepForOtherFiles(List<DeleteFile> deletes, Set<String> replaced) {
        List<DeleteFile> copies = new ArrayList<>();
        Schema pathAndPosition = org.apache.iceberg.io.DeleteSchemaUtil.pathPosSchema();
        OutputFileFactory outputFiles = TableFiles.outputFiles(table, 0, "cryo-keep");
        try {
            for (DeleteFile delete : deletes) {
                PositionDeleteWriter<Record> writer = positionDeleteWriter(outputFiles, delete);
                long kept = 0;
                try (writer; CloseableIterable<Record> rows = ParquetRows.open(table.io(), delete, pathAndPosition)) {
                    PositionDelete<Record> row = PositionDelete.create();
                    for (Record entry : rows) {
                        String path = entry.get(0).toString();
                        if (!replaced.contains(path)) {
                            writer.write(row.set(path, (Long) entry.get(1), null));
                            kept++;
                        }
                    }
                }
                if (kept > 0) {
                    copies.add(writer.toDeleteFile());
                } else {
                    table.io().deleteFile(writer.toDeleteFile().location());
                }
            }
            return copies;
        } catch (IOException e) {
            TableFiles.deleteQuietly(table, copies);
            throw TableFiles.storageFailure(table, "copy position deletes of kept data files", e);
        }
    }

    // ---------------------------------------------------------------- rebasing

    private record Rebase(List<DeleteFile> deletes, long rows) {
    }

    /**
     * Position deletes that now apply to replaced files, mapped onto the new files. Positions
     * deleted at the start snapshot were never written and find no run; every other deleted
     * position finds exactly one.
     */
    private Rebase rebase(RewriteOutput written, Set<String> replaced, Map<String, FileScanTask> live) {
        BaseDeleteLoader loader = new BaseDeleteLoader(delete -> table.io().newInputFile(delete.location()));
        Map<Integer, List<Long>> deletedByNewFile = new TreeMap<>();
        long rows = 0;
        for (String location : replaced) {
            List<DeleteFile> positionDeletes = live.get(location).deletes().stream()
                    .filter(delete -> delete.content() == FileContent.POSITION_DELETES).toList();
            List<Run> runs = written.runs().get(location);
            if (positionDeletes.isEmpty() || runs == null || runs.isEmpty()) {
                continue;
            }
            PositionDeleteIndex deleted = loader.loadPositionDeletes(positionDeletes, location);
            long[] counter = {0};
            deleted.forEach(position -> {
                Run run = Run.find(runs, position);
                if (run != null) {
                    deletedByNewFile.computeIfAbsent(run.newFile(), ignored -> new ArrayList<>())
                            .add(run.firstNewPosition() + (position - run.firstPosition()));
                    counter[0]++;
                }
            });
            rows += counter[0];
        }
        if (deletedByNewFile.isEmpty()) {
            return new Rebase(List.of(), 0);
        }
        return new Rebase(writePositionDeletes(written, deletedByNewFile), rows);
    }

    private List<DeleteFile> writePositionDeletes(RewriteOutput written, Map<Integer, List<Long>> deletedByNewFile) {
        OutputFileFactory outputFiles = TableFiles.outputFiles(table, 0, "cryo-rebase");
        List<DeleteFile> deletes = new ArrayList<>();
        try {
            if (TableUtil.formatVersion(table) >= 3) {
                BaseDVFileWriter writer = new BaseDVFileWriter(outputFiles, path -> null);
                try (writer) {
                    deletedByNewFile.forEach((index, positions) -> {
                        DataFile file = written.files().get(index);
                        PartitionSpec spec = table.specs().get(file.specId());
                        positions.forEach(position -> writer.delete(file.location(), position, spec,
                                spec.isUnpartitioned() ? null : file.partition()));
                    });
                }
                deletes.addAll(writer.result().deleteFiles());
                return deletes;
            }
            // Format v2: one position delete file per new data file, rows sorted by position.
            for (Map.Entry<Integer, List<Long>> entry : deletedByNewFile.entrySet()) {
                DataFile file = written.files().get(entry.getKey());
                PositionDeleteWriter<Record> writer = positionDeleteWriter(outputFiles, file);
                try (writer) {
                    PositionDelete<Record> delete = PositionDelete.create();
                    entry.getValue().stream().sorted(Comparator.naturalOrder())
                            .forEach(position -> writer.write(delete.set(file.location(), position, null)));
                }
                deletes.add(writer.toDeleteFile());
            }
            return deletes;
        } catch (IOException e) {
            TableFiles.deleteQuietly(table, deletes);
            throw TableFiles.storageFailure(table, "write the rebased position deletes", e);
        }
    }

    /** A format-v2 Parquet position delete writer in the partition of {@code file}, with the table's write properties. */
    private PositionDeleteWriter<Record> positionDeleteWriter(OutputFileFactory outputFiles, ContentFile<?> file) {
        PartitionSpec spec = table.specs().get(file.specId());
        StructLike partition = spec.isUnpartitioned() ? null : file.partition();
        GenericAppenderFactory appenders = new GenericAppenderFactory(table.schema(), spec);
        appenders.setAll(table.properties());
        return appenders.newPosDeleteWriter(partition == null ? outputFiles.newOutputFile()
                : outputFiles.newOutputFile(spec, partition), FileFormat.PARQUET, partition);
    }
}
