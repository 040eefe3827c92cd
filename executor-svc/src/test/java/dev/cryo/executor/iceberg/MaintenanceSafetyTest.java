package dev.cryo.executor.iceberg;

import dev.cryo.contracts.OrphanAgeFloors;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.executor.engine.OrphanAgeFloor;
import dev.cryo.executor.engine.OrphanShareBrake;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.executor.engine.OrphanBrakeReleases;
import dev.cryo.executor.engine.RunningJobs;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.platform.error.CryoException;
import dev.cryo.iceberg.orphan.LocationEquivalence;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the two deleting operations must never do, on real Iceberg tables: remove_orphan_files below
 * its age floor or on a table with gc.enabled=false; expire_snapshots of a snapshot a branch or tag
 * references, of the snapshot a running job started from, or with less history than the table's
 * live properties keep. Each refusal names the setting and leaves every snapshot and file in place.
 */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class MaintenanceSafetyTest {

    static final OperationParameters EXPIRE_EVERYTHING_ALLOWED = new OperationParameters(null, Duration.ZERO, 1, null);

    @TempDir
    static Path warehouse;
    static TestTables tables;
    static NativeEngine engine;

    @BeforeAll
    static void catalog() {
        tables = new TestTables(warehouse);
        engine = tables.engine(TestTables.settings());
    }

    @AfterAll
    static void close() throws Exception {
        tables.close();
    }

    @Test
    void anExpiryThatWouldDropATagPastItsMaxRefAgeIsRefusedAndExpiresNothing() {
        Table table = tables.create("tag_age", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 1, 10, 1, 81);
        long tagged = table.currentSnapshot().snapshotId();
        table.manageSnapshots().createTag("quarter-end", tagged).setMaxRefAgeMs("quarter-end", 1L).commit();
        TestTables.fill(table, 2, 10, 1, 82);
        Set<Long> before = snapshotIds(table);

        assertThatThrownBy(() -> run(table, "job-" + UUID.randomUUID(), StepKey.table(Operation.EXPIRE_SNAPSHOTS),
                EXPIRE_EVERYTHING_ALLOWED))
                .isInstanceOf(CryoException.class)
                .hasMessage("Cannot expire snapshots of " + table.name() + ": snapshot " + tagged + " is referenced by tag"
                        + " 'quarter-end' (its max-ref-age-ms of 1 ms has passed), and Cryo never expires a snapshot a branch"
                        + " or tag references; remove the ref's max-ref-age-ms (ALTER TABLE … REPLACE TAG/BRANCH … RETAIN)"
                        + " or drop the ref yourself if it may go");

        table.refresh();
        assertThat(snapshotIds(table)).isEqualTo(before);
        assertThat(table.refs()).containsKey("quarter-end");
        assertThat(dataFilesExist(table, tagged)).isTrue();
    }

    @Test
    void anExpiryThatWouldDropABranchHeadIsRefusedToo() {
        Table table = tables.create("branch_age", 3, spec -> spec.day("event_ts"));
        TestTables.fill(table, 1, 10, 1, 83);
        long head = table.currentSnapshot().snapshotId();
        table.manageSnapshots().createBranch("audit", head).setMaxRefAgeMs("audit", 1L).commit();
        TestTables.fill(table, 2, 10, 1, 84);
        Set<Long> before = snapshotIds(table);

        assertThatThrownBy(() -> run(table, "job-" + UUID.randomUUID(), StepKey.table(Operation.EXPIRE_SNAPSHOTS),
                EXPIRE_EVERYTHING_ALLOWED))
                .isInstanceOf(CryoException.class)
                .hasMessageContaining("snapshot " + head + " is referenced by branch 'audit' (its max-ref-age-ms of 1 ms has passed)")
                .hasMessageContaining("remove the ref's max-ref-age-ms");

        table.refresh();
        assertThat(snapshotIds(table)).isEqualTo(before);
        assertThat(table.refs()).containsKey("audit");
    }

    @Test
    void anExpiryKeepsTheSnapshotItsJobStartedFromAsTheRollbackPointUntilALaterJob() {
        Table table = tables.create("running_job", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 4, 20, 1, 85);
        long startedFrom = table.currentSnapshot().snapshotId();
        String job = "job-" + UUID.randomUUID();
        run(table, job, StepKey.chunk(Operation.OPTIMIZE, 0), OperationParameters.NONE,
                List.of(TestTables.predicateOf(table, TestTables.dataFiles(table).get(0))));
        long compacted = table.currentSnapshot().snapshotId();
        assertThat(compacted).as("the job committed").isNotEqualTo(startedFrom);

        StepResult expired = run(table, job, StepKey.table(Operation.EXPIRE_SNAPSHOTS), EXPIRE_EVERYTHING_ALLOWED);

        assertThat(expired.message()).startsWith("expired 3 of 5 snapshots (retention ")
                .contains("kept snapshot " + startedFrom + " (job " + job + " started from it)");
        assertThat(snapshotIds(table)).containsExactlyInAnyOrder(startedFrom, compacted);
        assertThat(dataFilesExist(table, startedFrom)).as("the rollback point reads whole").isTrue();

        StepResult nextJob = run(table, "job-" + UUID.randomUUID(), StepKey.table(Operation.EXPIRE_SNAPSHOTS),
                EXPIRE_EVERYTHING_ALLOWED);
        assertThat(nextJob.message()).startsWith("expired 1 of 2 snapshots");
        assertThat(snapshotIds(table)).containsExactly(compacted);
    }

    @Test
    void anExpiryKeepsTheSnapshotAnotherRunningJobStartedFrom() {
        Table table = tables.create("other_job", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 2, 10, 1, 88);
        long readByOtherJob = table.currentSnapshot().snapshotId();
        Instant otherJobStarted = Instant.ofEpochMilli(table.currentSnapshot().timestampMillis()).plusMillis(1);
        TestTables.fill(table, 2, 10, 1, 89);
        RunningJobs running = (tableId, jobId) -> tableId.equals(tables.id(table)) ? List.of(otherJobStarted) : List.of();
        NativeEngine guarded = new NativeEngine(tables.registry, TestTables.settings(),
                new JobRecords(JobRecords.NONE.stepLog(), running, OrphanBrakeReleases.NONE), java.time.Clock.systemUTC());

        StepResult expired = guarded.run(new StepRequest(tables.id(table), "job-" + UUID.randomUUID(),
                StepKey.table(Operation.EXPIRE_SNAPSHOTS), List.of(), EXPIRE_EVERYTHING_ALLOWED));

        table.refresh();
        assertThat(expired.message()).startsWith("expired 1 of 4 snapshots")
                .contains("kept snapshot " + readByOtherJob + " (a job running on the table since " + otherJobStarted
                        + " started from it)");
        assertThat(snapshotIds(table)).contains(readByOtherJob).hasSize(3);
        assertThat(dataFilesExist(table, readByOtherJob)).isTrue();
    }

    @Test
    void anExpiryTakesTheTablesLiveRetentionWhenItIsLongerThanThePlans() {
        Table table = tables.create("live_retention", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 4, 10, 1, 90);
        Set<Long> before = snapshotIds(table);
        // the owner raised the retention after Cryo's scan: the plan still says zero and keep one
        table.updateProperties().set(TableProperties.MAX_SNAPSHOT_AGE_MS, String.valueOf(Duration.ofDays(30).toMillis()))
                .set(TableProperties.MIN_SNAPSHOTS_TO_KEEP, "3").commit();

        StepResult expired = run(table, "job-" + UUID.randomUUID(), StepKey.table(Operation.EXPIRE_SNAPSHOTS),
                EXPIRE_EVERYTHING_ALLOWED);

        assertThat(expired.message()).startsWith("expired 0 of 4 snapshots (retention PT720H, retain last 3");
        assertThat(snapshotIds(table)).isEqualTo(before);

        table.updateProperties().remove(TableProperties.MAX_SNAPSHOT_AGE_MS).commit();
        StepResult keepThree = run(table, "job-" + UUID.randomUUID(), StepKey.table(Operation.EXPIRE_SNAPSHOTS),
                EXPIRE_EVERYTHING_ALLOWED);
        assertThat(keepThree.message()).startsWith("expired 1 of 4 snapshots (retention PT0S, retain last 3");
    }

    @Test
    void orphanRemovalNeverRunsBelowADayUnlessTheExecutorAllowsItAndThenSaysSo() throws IOException {
        Table table = tables.create("floor", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 2, 10, 1, 86);
        Path orphan = write(Path.of(URI.create(table.location())).resolve("data/orphan-2-hours.parquet"), Duration.ofHours(2));

        assertThatThrownBy(() -> run(table, "job-" + UUID.randomUUID(), StepKey.table(Operation.REMOVE_ORPHAN_FILES),
                new OperationParameters(null, null, null, Duration.ofHours(1))))
                .isInstanceOf(CryoException.class)
                .hasMessageStartingWith("Cannot remove orphan files younger than PT1H: the age floor must be at least PT24H")
                .hasMessageContaining("cryo.orphans.allow-unsafe-floor=true");
        assertThatThrownBy(() -> new OrphanRemovalSettings(Duration.ofMinutes(10), OrphanAgeFloors.UnsafeFloors.REFUSED,
                LocationEquivalence.DEFAULT, new OrphanShareBrake(0.5), 1000, false))
                .hasMessageStartingWith("Cannot remove orphan files younger than PT10M");
        assertThat(orphan).exists();

        StepResult atTheFloor = run(table, "job-" + UUID.randomUUID(), StepKey.table(Operation.REMOVE_ORPHAN_FILES),
                new OperationParameters(null, null, null, Duration.ofHours(24)));
        assertThat(atTheFloor.files()).isEmpty();
        assertThat(orphan).as("2 hours old: under the one-day floor").exists();

        NativeEngine unsafe = tables.engine(new NativeEngineSettings(TestTables.REWRITE, Duration.ofDays(5), 1,
                new OrphanRemovalSettings(Duration.ofDays(3), OrphanAgeFloors.UnsafeFloors.ALLOWED, LocationEquivalence.DEFAULT,
                        new OrphanShareBrake(0.5), 1000, false)));
        StepResult removed = unsafe.run(new StepRequest(tables.id(table), "job-" + UUID.randomUUID(),
                StepKey.table(Operation.REMOVE_ORPHAN_FILES), List.of(), new OperationParameters(null, null, null,
                Duration.ofHours(1))));
        assertThat(removed.message()).contains("age floor PT1H (below the PT24H minimum:"
                + " cryo.orphans.allow-unsafe-floor=true)");
        assertThat(removed.files()).extracting(file -> Path.of(URI.create(file))).containsExactly(orphan);
        assertThat(orphan).doesNotExist();
    }

    @Test
    void aTableWithGarbageCollectionDisabledLosesNeitherSnapshotsNorFiles() throws IOException {
        Table table = tables.create("no_gc", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 3, 10, 1, 87);
        table.updateProperties().set(TableProperties.GC_ENABLED, "false").commit();
        Path orphan = write(Path.of(URI.create(table.location())).resolve("data/old-orphan.parquet"), Duration.ofDays(30));
        Set<Long> before = snapshotIds(table);

        assertThatThrownBy(() -> run(table, "job-" + UUID.randomUUID(), StepKey.table(Operation.EXPIRE_SNAPSHOTS),
                EXPIRE_EVERYTHING_ALLOWED))
                .isInstanceOf(CryoException.class)
                .hasMessage("Cannot expire snapshots of " + table.name() + ": the table sets gc.enabled=false (its files may"
                        + " be shared with other tables); set it to true if Cryo may delete files");
        assertThatThrownBy(() -> run(table, "job-" + UUID.randomUUID(), StepKey.table(Operation.REMOVE_ORPHAN_FILES),
                OperationParameters.NONE))
                .isInstanceOf(CryoException.class)
                .hasMessage("Cannot remove orphan files of " + table.name() + ": the table sets gc.enabled=false (its files"
                        + " may be shared with other tables); set it to true if Cryo may delete files");

        table.refresh();
        assertThat(snapshotIds(table)).isEqualTo(before);
        assertThat(orphan).exists();
    }

    // ------------------------------------------------------------------ helpers

    private static StepResult run(Table table, String jobId, StepKey step, OperationParameters parameters) {
        return run(table, jobId, step, parameters, List.of());
    }

    private static StepResult run(Table table, String jobId, StepKey step, OperationParameters parameters,
                                  List<dev.cryo.contracts.event.PartitionPredicate> partitions) {
        StepResult result = engine.run(new StepRequest(tables.id(table), jobId, step, partitions, parameters));
        table.refresh();
        return result;
    }

    private static Set<Long> snapshotIds(Table table) {
        return StreamSupport.stream(table.snapshots().spliterator(), false).map(Snapshot::snapshotId).collect(Collectors.toSet());
    }

    private static boolean dataFilesExist(Table table, long snapshotId) {
        try (var tasks = table.newScan().useSnapshot(snapshotId).planFiles()) {
            for (var task : tasks) {
                if (!Files.exists(Path.of(URI.create(task.file().location())))) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Path write(Path file, Duration age) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "orphan");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
        return file;
    }
}
