package dev.cryo.executor.sql;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.event.FileCounts;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.CommitTags;
import dev.cryo.executor.engine.EngineStepException;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import io.quarkus.logging.Log;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expression;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an engine's data rewrite committed, checked: its commits in the table's history, the rows
 * of every partition they rewrote compared before and after, and the equality delete files the
 * rewrite left applying to no live data file, dropped by Cryo.
 */
final class RewriteChecks {

    /** The engine's rewrites after the start snapshot, oldest first. */
    static List<Snapshot> commitsBy(Table table, Snapshot start, List<String> queryIds) {
        return EngineCommits.after(table, start.snapshotId()).stream()
                .filter(snapshot -> EngineCommits.isRewriteBy(snapshot, queryIds)).toList();
    }

    /**
     * Compares, for each run of consecutive engine commits, the rows of every partition they
     * touched just before the run and right after it. Commits of others in between (a streaming
     * writer) start a new run, so their rows never count against the engine.
     */
    static String verify(Table table, StepRequest request, Engine engine, List<Snapshot> commits, List<String> queryIds) {
        List<List<Snapshot>> runs = new ArrayList<>();
        for (Snapshot commit : commits) {
            List<Snapshot> last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last != null && commit.parentId() != null && commit.parentId() == last.get(last.size() - 1).snapshotId()) {
                last.add(commit);
            } else {
                List<Snapshot> run = new ArrayList<>();
                run.add(commit);
                runs.add(run);
            }
        }
        List<String> checked = new ArrayList<>();
        for (List<Snapshot> run : runs) {
            Snapshot first = run.get(0);
            Snapshot last = run.get(run.size() - 1);
            Expression rows = EngineCommits.rowsTouched(table, run);
            // From format v3 on the fingerprints cover row lineage: an engine rewrite that re-assigned
            // _row_id or _last_updated_sequence_number fails like one that changed a value. Only
            // Spark's rewrites reach here on v3, and they keep lineage (EngineRowLineageTest); an
            // engine known to lose it, or to refuse v3, is never asked (CapabilityMatrix).
            Fingerprint before = Fingerprints.of(table, first.parentId(), rows);
            Fingerprint after = Fingerprints.of(table, last.snapshotId(), rows);
            if (!before.equals(after)) {
                String message = "Cannot accept the rewrite of " + request.step() + " of " + request.table() + " by "
                        + engine.id() + " (query " + SqlEngine.joined(queryIds) + "): the rows of the partitions it rewrote differ"
                        + " between snapshot " + first.parentId() + " (" + before + ") and its commit " + last.snapshotId()
                        + " (" + after + "). The engine's commit stays (Cryo cannot undo it): check the table and roll it"
                        + " back to snapshot " + first.parentId() + " with the engine's rollback_to_snapshot procedure";
                Log.error(message);
                throw new EngineStepException(ExecutorErrorCode.FINGERPRINT_MISMATCH, message, SqlEngine.joined(queryIds), null);
            }
            checked.add(before.toString());
        }
        return checked.isEmpty() ? "nothing to fingerprint"
                : "fingerprint of the rewritten partitions equal before and after: " + String.join(", ", checked);
    }

    /** The step's result after the engine's rewrite: what it committed, checked, and what Cryo dropped after it. */
    static StepResult result(Table table, StepRequest request, Engine engine, Snapshot start, String ran,
                             List<String> queryIds) {
        List<Snapshot> commits = commitsBy(table, start, queryIds);
        String checked = verify(table, request, engine, commits, queryIds);
        if (commits.isEmpty()) {
            return new StepResult(FileCounts.ZERO, FileCounts.ZERO, null, 0, ran
                    + "; it committed nothing: no file of the chunk's partitions needed a rewrite at snapshot "
                    + start.snapshotId(), List.of(), SqlEngine.joined(queryIds)).withChanged(false);
        }
        FileCounts removed = EngineCommits.removed(commits);
        FileCounts added = EngineCommits.added(commits);
        long committed = commits.get(commits.size() - 1).snapshotId();
        String message = ran + "; committed " + SqlEngine.ids(commits) + ": rewrote " + removed.dataFiles()
                + " data files into " + added.dataFiles() + ", removed " + removed.deleteFiles() + " delete files; "
                + checked;
        Optional<DanglingEqualityDeletes.Dropped> cleanup;
        try {
            cleanup = DanglingEqualityDeletes.drop(table, commits,
                    Map.of(CommitTags.JOB_ID, request.jobId(), CommitTags.CHUNK, request.step().toString()),
                    SqlEngine.joined(queryIds));
        } catch (ValidationException | CommitFailedException e) {
            // The engine's rewrite stands; a writer's commit got in the way of the clean-up only.
            Log.warnf("%s: could not drop the equality delete files left by %s: %s", request.table(), ran, e.getMessage());
            cleanup = Optional.empty();
            message += "; dropping the equality delete files it left lost to a concurrent commit (" + e.getMessage()
                    + "): the next optimize of these partitions drops them";
        }
        if (cleanup.isPresent()) {
            DanglingEqualityDeletes.Dropped drop = cleanup.get();
            removed = new FileCounts(removed.dataFiles(), removed.dataBytes(),
                    removed.deleteFiles() + drop.files().size(), removed.records());
            committed = drop.snapshotId();
            message += "; then Cryo dropped " + drop.files().size() + " equality delete files that applied to no"
                    + " live data file any more (snapshot " + drop.snapshotId() + ", rows " + drop.rows()
                    + " equal before and after)";
        }
        return new StepResult(removed, added, committed, 0, message, List.of(), SqlEngine.joined(queryIds));
    }

    private RewriteChecks() {
    }
}
