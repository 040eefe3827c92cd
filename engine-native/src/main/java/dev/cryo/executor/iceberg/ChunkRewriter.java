package dev.cryo.executor.iceberg;

import dev.cryo.contracts.event.FileCounts;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.platform.error.CryoException;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Rewrites the data files of a chunk's partitions, with their deletes applied, into files of the
 * target size, and commits them as one tagged snapshot: plan at the current snapshot, write
 * ({@link ChunkWriter}), read back and compare ({@link RewriteVerifier}), commit ({@link RewriteCommit}).
 *
 * <p>Speed and memory: the chunk's partitions are written several at once, and the new files read
 * back several at once, on {@link ParallelTasks} ({@link RewriteSettings#threads()}); a failure of
 * one stops the others and deletes every new file of the chunk. Every writer and reader first
 * reserves a row group of heap from {@link WriteMemory}, so the heap stays bounded however many
 * partitions, jobs or rows there are.
 *
 * <p>Safety: the rows read (at the start snapshot, deletes applied) and the rows in the new files
 * (read back from storage) must have equal fingerprints, or nothing is committed. The commit
 * validates from the start snapshot and keeps the start snapshot's data sequence number, so
 * concurrent appends and equality deletes stay correct.
 *
 * <p>Winning against streaming writers: {@link RewriteCommit} carries rows deleted concurrently
 * onto the new files instead of throwing the rewrite away; only when a replaced file itself
 * disappeared (another rewrite won) is the chunk planned again, here, with backoff.
 */
final class ChunkRewriter {

    private static final Logger LOG = Logger.getLogger(ChunkRewriter.class);

    /** Which files of a partition a rewrite takes. */
    enum Selection {
        /** Small, oversized and delete-carrying files (optimize). */
        BIN_PACK,
        /** Files that equality deletes apply to (convert_deletes). */
        EQUALITY_DELETES,
        /** Files that position deletes or deletion vectors apply to (rewrite_position_deletes). */
        POSITION_DELETES
    }

    private final Table table;
    private final RewriteSettings settings;
    private final WriteMemory memory;
    private final long targetFileSizeBytes;
    private final Map<String, String> tags;
    private final ParallelTasks parallel;
    private Runnable beforeCommit = () -> { };
    private SketchCache sketches;

    ChunkRewriter(Table table, RewriteSettings settings, WriteMemory memory, long targetFileSizeBytes,
                  Map<String, String> tags) {
        this.table = table;
        this.settings = settings;
        this.memory = memory;
        this.targetFileSizeBytes = targetFileSizeBytes;
        this.tags = Map.copyOf(tags);
        this.parallel = new ParallelTasks(table.name(), settings.effectiveThreads());
    }

    /** Runs before every commit attempt: tests use it to commit as a concurrent writer would, at the worst moment. */
    ChunkRewriter beforeEachCommit(Runnable action) {
        this.beforeCommit = action;
        return this;
    }

    /**
     * Keeps the column sketches of the rows read back from a committed rewrite's new files in {@code cache}
     * (for a later compute_statistics of the same job); null keeps none.
     */
    ChunkRewriter sketchingInto(SketchCache cache) {
        this.sketches = cache;
        return this;
    }

    StepResult rewrite(PartitionScope scope, Selection selection) {
        int retries = 0;
        for (int replan = 0; ; replan++) {
            table.refresh();
            Snapshot start = table.currentSnapshot();
            if (start == null) {
                return StepResult.nothingToDo("the table has no snapshot");
            }
            long planStarted = System.nanoTime();
            RewritePlan plan = plan(start, scope, selection);
            if (plan.replaced().isEmpty()) {
                return StepResult.nothingToDo("no file of the chunk's partitions needs a rewrite at snapshot "
                        + start.snapshotId());
            }
            long writeStarted = System.nanoTime();
            RewriteOutput written = new ChunkWriter(table, memory, parallel, targetFileSizeBytes).write(plan);
            long verifyStarted = System.nanoTime();
            Map<Integer, CompactSketch> readBack = verify(plan, written);
            long commitStarted = System.nanoTime();
            RewriteCommit.Attempt attempt = new RewriteCommit(table, settings, tags, beforeCommit).commit(plan, written);
            long committed = System.nanoTime();
            if (attempt.snapshotId() != null && readBack != null) {
                sketches.put(new SketchCache.Group(table.name(), table.schema().schemaId(), written.files().stream()
                        .map(DataFile::location).collect(Collectors.toSet()), readBack));
            }
            // Where the time went, so that an operator (and a benchmark) can tell a slow read from a slow commit.
            String phases = String.format(Locale.ROOT, "plan %.1f s, write %.1f s, read back %.1f s, commit %.1f s",
                    (writeStarted - planStarted) / 1e9, (verifyStarted - writeStarted) / 1e9,
                    (commitStarted - verifyStarted) / 1e9, (committed - commitStarted) / 1e9);
            retries += attempt.retries();
            if (attempt.snapshotId() != null) {
                FileCounts before = new FileCounts(plan.replaced().size(), plan.replaced().stream()
                        .mapToLong(task -> task.file().fileSizeInBytes()).sum(), attempt.removedDeletes(),
                        plan.replaced().stream().mapToLong(task -> task.file().recordCount()).sum());
                FileCounts after = new FileCounts(written.files().size(), written.files().stream()
                        .mapToLong(ContentFile::fileSizeInBytes).sum(), attempt.addedDeletes(), written.input().rows());
                int partitions = plan.replacedByPartition().size();
                String message = "rewrote " + plan.replaced().size() + " data files into " + written.files().size()
                        + (partitions > 1 ? " (" + partitions + " partitions, " + parallel.threadsFor(partitions) + " at once)" : "")
                        + ", removed " + attempt.removedDeletes() + " delete files; fingerprint " + written.input()
                        + " equal before and after" + (attempt.rebasedDeletes() > 0
                        ? "; carried " + attempt.rebasedDeletes() + " concurrent row deletes onto the new files" : "")
                        + " (" + phases + ")";
                return new StepResult(before, after, attempt.snapshotId(), retries, message, List.of());
            }
            if (replan >= settings.maxReplans()) {
                throw new CryoException(ExecutorErrorCode.COMMIT_CONFLICT, "Cannot commit the rewrite of "
                        + scope + " in " + table.name() + ": concurrent commits replaced its files " + (replan + 1)
                        + " times; raise cryo.executor.rewrite.max-replans or pause the competing rewrite");
            }
            retries++;
            Duration delay = settings.backoff().delay(replan + 1);
            LOG.infof("%s: rewrite of %s lost to a concurrent rewrite, planning again in %s", table.name(), scope, delay);
            sleep(delay);
        }
    }

    // ---------------------------------------------------------------- planning

    private RewritePlan plan(Snapshot start, PartitionScope scope, Selection selection) {
        Map<Integer, List<FileScanTask>> byPartition = new TreeMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(start.snapshotId())
                .filter(scope.filter()).planFiles()) {
            for (FileScanTask task : tasks) {
                int partition = scope.indexOf(task.file());
                if (partition >= 0) {
                    byPartition.computeIfAbsent(partition, ignored -> new ArrayList<>()).add(task);
                }
            }
        } catch (IOException e) {
            throw TableFiles.storageFailure(table, "plan the chunk", e);
        }
        Map<Integer, List<FileScanTask>> replaced = new TreeMap<>();
        byPartition.forEach((partition, tasks) -> {
            List<FileScanTask> chosen = choose(tasks, selection);
            if (!chosen.isEmpty()) {
                replaced.put(partition, chosen);
            }
        });
        List<FileScanTask> all = replaced.values().stream().flatMap(List::stream).toList();
        return new RewritePlan(start, scope, all, replaced);
    }

    private List<FileScanTask> choose(List<FileScanTask> tasks, Selection selection) {
        return switch (selection) {
            case EQUALITY_DELETES -> tasks.stream().filter(hasDeletes(FileContent.EQUALITY_DELETES)).toList();
            case POSITION_DELETES -> tasks.stream().filter(hasDeletes(FileContent.POSITION_DELETES)).toList();
            case BIN_PACK -> {
                long min = (long) (targetFileSizeBytes * settings.minFileSizeRatio());
                long max = (long) (targetFileSizeBytes * settings.maxFileSizeRatio());
                List<FileScanTask> chosen = tasks.stream().filter(task -> !task.deletes().isEmpty()
                        || task.file().fileSizeInBytes() < min || task.file().fileSizeInBytes() > max).toList();
                boolean worthIt = chosen.size() >= 2 || chosen.stream().anyMatch(task -> !task.deletes().isEmpty()
                        || task.file().fileSizeInBytes() > max);
                yield worthIt ? chosen : List.of();
            }
        };
    }

    private static Predicate<FileScanTask> hasDeletes(FileContent content) {
        return task -> task.deletes().stream().anyMatch(delete -> delete.content() == content);
    }


    // ---------------------------------------------------------------- verifying

    /**
     * Reads the new files back and compares their rows with the rows that went in ({@link RewriteVerifier});
     * returns their column sketches when {@link #sketchingInto} asked for them, else null.
     */
    Map<Integer, CompactSketch> verify(RewritePlan plan, RewriteOutput written) {
        return new RewriteVerifier(table, memory, parallel)
                .verify(plan, written, sketches != null);
    }


    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CryoException(ExecutorErrorCode.ENGINE_FAILURE, "Cannot wait to retry: interrupted", e);
        }
    }
}
