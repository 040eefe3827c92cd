package dev.cryo.faults;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One fault scenario: its tables (in a namespace of their own), its writer, the events since it
 * began, and the checks every scenario ends with.
 *
 * <p>The tables are created under a governor pause, so that nothing is admitted before the
 * scenario has its fault ready: the planner's plans queue as {@code paused} until the plan that
 * covers every partition is there, and {@link #resume()} lets the governor admit it.
 */
final class Scenario implements AutoCloseable {

    static final int PARTITIONS = 6;
    private static final String SNAPSHOT_JOB_ID = "cryo.job-id";
    private static final String SNAPSHOT_CHUNK = "cryo.chunk";

    private final Stack stack;
    private final String name;
    private final String tablePrefix;
    private final Writer writer;
    private final EventLog log;
    private final Instant startedAt = Instant.now();
    private String pauseId;

    Scenario(Stack stack, String namespace, String name) {
        this.stack = stack;
        this.name = name;
        this.tablePrefix = Stack.CATALOG + "." + namespace + "." + name + "_";
        JsonNode pause = stack.post("governor", "/api/v1/pauses",
                Map.of("pattern", tablePrefix + "*", "reason", "fault scenario " + name + " sets up"), 201);
        this.pauseId = pause.get("id").asText();
        this.log = new EventLog(tablePrefix);
        this.writer = new Writer(stack, namespace, PARTITIONS);
    }

    String name() {
        return name;
    }

    Writer writer() {
        return writer;
    }

    EventLog.Events events() {
        return log.read();
    }

    /** Creates {@code count} tables of {@code appends} small files per partition, and starts the writer. */
    List<TableId> tables(int count, int appends, int rowsPerFile, int payloadChars) {
        List<TableId> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(writer.create(name + "_" + i, appends, rowsPerFile, payloadChars));
        }
        writer.start(Duration.ofMillis(400));
        return ids;
    }

    /** Waits until each table's queued plan (paused) rewrites every partition, chunk by chunk. */
    void awaitFullPlansQueued() {
        await("a plan over every partition of each table, queued behind the pause").atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
                    EventLog.Events events = log.read();
                    for (TableId table : writer.tables()) {
                        Optional<MaintenancePlanned> newest = events.of(MaintenancePlanned.class).stream()
                                .filter(plan -> plan.table().equals(table))
                                .max(Comparator.comparing(MaintenancePlanned::plannedAt));
                        assertThat(newest).as("a plan of " + table).isPresent();
                        assertThat(optimizeChunks(newest.get())).as("optimize chunks of " + table).isEqualTo(PARTITIONS);
                        JsonNode view = stack.get("governor", "/api/v1/tables/" + Stack.encode(table.toString()));
                        List<String> queued = new ArrayList<>();
                        view.get("queued").forEach(plan -> queued.add(plan.get("planId").asText() + "/"
                                + plan.path("reason").asText()));
                        assertThat(queued).as("queued plans of " + table).contains(newest.get().planId() + "/paused");
                    }
                });
    }

    static int optimizeChunks(MaintenancePlanned plan) {
        return plan.operations().stream().filter(operation -> operation.operation() == Operation.OPTIMIZE)
                .mapToInt(operation -> operation.chunks().size()).sum();
    }

    static List<PlannedOperation> operations(MaintenancePlanned plan) {
        return plan.operations();
    }

    /** Lifts the scenario's pause: the governor decides the queued plans now. */
    void resume() {
        stack.delete("governor", "/api/v1/pauses/" + pauseId, 204);
        pauseId = null;
    }

    /** The {@code cryo.chunk} tags of the commits Cryo's jobs made to the table, oldest first. */
    List<String> jobCommits(TableId table) {
        Table loaded = writer.table(table);
        List<Snapshot> snapshots = new ArrayList<>();
        loaded.snapshots().forEach(snapshots::add);
        snapshots.sort(Comparator.comparingLong(Snapshot::sequenceNumber));
        return snapshots.stream().filter(snapshot -> snapshot.summary().containsKey(SNAPSHOT_JOB_ID))
                .map(snapshot -> snapshot.summary().get(SNAPSHOT_JOB_ID) + "/" + snapshot.summary().get(SNAPSHOT_CHUNK))
                .toList();
    }

    /**
     * Kills the executor once the table has {@code commits} chunk commits of an optimize; returns the chunk commits
     * when it died, fewer than the partitions (it died mid-optimize).
     */
    int killExecutorAfterCommits(TableId table, int commits) {
        await("a chunk commit of the job").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(100))
                .until(() -> optimizeCommits(table) >= commits);
        stack.kill("executor");
        int committed = optimizeCommits(table);
        assertThat(committed).as("the executor was killed mid-optimize (chunk commits when it died)")
                .isLessThan(Scenario.PARTITIONS);
        return committed;
    }

    /** How many chunk commits of an optimize Cryo's jobs made to the table. */
    int optimizeCommits(TableId table) {
        return (int) jobCommits(table).stream().filter(commit -> commit.contains("/optimize:")).count();
    }

    /** Each job's outcome once (a redelivered job republishes its JobFinished under the same id). */
    static List<String> outcomes(List<JobFinished> finished) {
        return finished.stream().collect(Collectors.toMap(JobFinished::jobId,
                        job -> job.outcome().id() + (job.message() == null ? "" : " (" + job.message() + ")"),
                        (first, second) -> first, LinkedHashMap::new))
                .values().stream().toList();
    }

    /** The first data file of the table's current snapshot. */
    static DataFile firstFile(Table table) throws IOException {
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                return task.file();
            }
        }
        throw new IllegalStateException("Cannot corrupt a file of " + table.name() + ": it has none");
    }

    /** The locations of the data files of the table's current snapshot. */
    static List<String> liveFiles(Table table) throws IOException {
        List<String> files = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> files.add(task.file().location()));
        }
        return files;
    }

    /** Waits for the JobFinished of every table (each table's first job). */
    List<JobFinished> awaitJobsFinished(Duration timeout) {
        List<JobFinished> finished = new ArrayList<>();
        await("every table's job finished").atMost(timeout).pollInterval(Duration.ofSeconds(2)).until(() -> {
            List<JobFinished> all = log.read().of(JobFinished.class);
            finished.clear();
            finished.addAll(all);
            return writer.tables().stream().allMatch(table -> all.stream().anyMatch(job -> job.table().equals(table)));
        });
        return finished;
    }

    /**
     * The end of every scenario: the writer stops, then (once the stack is quiet) every table's
     * rows are exactly what the writer committed, every plan was admitted and finished or
     * deferred with a reason, the audit holds exactly the events produced about the tables, and
     * no table is locked or has an unfinished job.
     */
    String end() {
        writer.stop();
        Instant writerStopped = Instant.now();
        await("every plan ended, no lock, the audit complete").atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(3)).untilAsserted(() -> {
                    EventLog.Events events = log.read();
                    assertPlansEnded(events);
                    assertNothingHeld();
                    assertAuditComplete(events);
                });
        EventLog.Events events = log.read();
        for (TableId table : writer.tables()) {
            assertThat(Fingerprints.ofTable(writer.table(table))).as("rows of " + table + " (deletes applied)")
                    .isEqualTo(writer.expected(table));
        }
        JsonNode verify = stack.get("audit", "/api/v1/audit/verify");
        assertThat(verify.get("status").asText()).as("audit chain: " + verify).isEqualTo("OK");
        String summary = String.format("%s: %d s; writer %d commits (%d failed and found committed, %d failed and not"
                        + " committed); %d plans, %d jobs admitted, %d finished, %d deferrals; %d events audited;"
                        + " quiet %d s after the writer stopped",
                name, Duration.between(startedAt, Instant.now()).toSeconds(), writer.commits(),
                writer.uncertainCommits(), writer.lostCommits(), events.of(MaintenancePlanned.class).size(),
                events.of(JobAdmitted.class).stream().map(JobAdmitted::jobId).distinct().count(),
                events.of(JobFinished.class).stream().map(JobFinished::jobId).distinct().count(),
                events.of(JobDeferred.class).size(),
                events.idsByTable().values().stream().mapToInt(Set::size).sum(),
                Duration.between(writerStopped, Instant.now()).toSeconds());
        System.out.println(summary);
        // Checked last, so that a dead letter does not hide what the checks above say: a broker or database restart
        // is a transient fault that consumers retry; a record dead-lettered for it is work dropped until a lease expires.
        assertThat(events.deadLetters()).as("records about the tables of " + name + " that a service dead-lettered")
                .isEmpty();
        return summary;
    }

    private void assertPlansEnded(EventLog.Events events) {
        Map<String, Set<String>> jobsByPlan = new HashMap<>();
        events.of(JobAdmitted.class).forEach(job -> jobsByPlan.computeIfAbsent(job.planId(), ignored -> new HashSet<>())
                .add(job.jobId()));
        Set<String> finishedJobs = new HashSet<>();
        events.of(JobFinished.class).forEach(job -> finishedJobs.add(job.jobId()));
        Map<String, List<JobDeferred>> deferrals = new HashMap<>();
        events.of(JobDeferred.class).forEach(deferral -> deferrals.computeIfAbsent(deferral.planId(),
                ignored -> new ArrayList<>()).add(deferral));
        List<MaintenancePlanned> plans = events.of(MaintenancePlanned.class);
        assertThat(plans).as("plans of " + name).isNotEmpty();
        for (MaintenancePlanned plan : plans) {
            Set<String> jobs = jobsByPlan.getOrDefault(plan.planId(), Set.of());
            assertThat(jobs).as("jobs admitted for plan " + plan.planId() + " (never two)").hasSizeLessThanOrEqualTo(1);
            if (jobs.isEmpty()) {
                assertThat(deferrals.getOrDefault(plan.planId(), List.of()))
                        .as("plan " + plan.planId() + " of " + plan.table() + ": neither admitted nor deferred")
                        .isNotEmpty()
                        .allSatisfy(deferral -> {
                            assertThat(deferral.reason()).isNotNull();
                            assertThat(deferral.message()).isNotBlank();
                        });
            } else {
                assertThat(finishedJobs).as("job of plan " + plan.planId() + " of " + plan.table() + " finished")
                        .contains(jobs.iterator().next());
            }
        }
        // Never two unfinished jobs of one table: each table's admitted jobs are as many as its finished ones.
        Map<TableId, Set<String>> admittedByTable = new HashMap<>();
        events.of(JobAdmitted.class).forEach(job -> admittedByTable.computeIfAbsent(job.table(),
                ignored -> new HashSet<>()).add(job.jobId()));
        admittedByTable.forEach((table, jobs) -> assertThat(finishedJobs).as("finished jobs of " + table)
                .containsAll(jobs));
    }

    private void assertNothingHeld() {
        Predicate<JsonNode> ours = node -> node.get("table").asText().startsWith(tablePrefix);
        List<String> held = new ArrayList<>();
        stack.get("governor", "/api/v1/locks").forEach(lock -> {
            if (ours.test(lock)) {
                held.add("lock " + lock);
            }
        });
        JsonNode queue = stack.get("governor", "/api/v1/queue");
        for (String list : List.of("admitted", "running")) {
            queue.get(list).forEach(job -> {
                if (ours.test(job)) {
                    held.add(list + " " + job);
                }
            });
        }
        assertThat(held).as("tables of " + name + " locked or with an unfinished job").isEmpty();
    }

    private void assertAuditComplete(EventLog.Events events) {
        for (TableId table : writer.tables()) {
            Set<String> produced = events.idsByTable().getOrDefault(table.toString(), Set.of());
            Set<String> audited = new HashSet<>();
            String after = null;
            do {
                JsonNode page = stack.get("audit", "/api/v1/audit?limit=1000&table=" + Stack.encode(table.toString())
                        + (after == null ? "" : "&after=" + Stack.encode(after)));
                page.get("items").forEach(item -> audited.add(item.get("eventId").asText()));
                after = page.hasNonNull("next") ? page.get("next").asText() : null;
            } while (after != null);
            assertThat(audited).as("audited events of " + table + " (" + produced.size() + " produced)")
                    .hasSameSizeAs(produced).containsExactlyInAnyOrderElementsOf(produced);
        }
    }

    /** Stops the writer; a pause left by a failed scenario stays (its tables are the scenario's own). */
    @Override
    public void close() {
        writer.close();
    }
}
