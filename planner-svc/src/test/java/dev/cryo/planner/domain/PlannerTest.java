package dev.cryo.planner.domain;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.HeldFinding;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.cryo.planner.domain.Fixtures.AT;
import static dev.cryo.planner.domain.Fixtures.BY_REGION;
import static dev.cryo.planner.domain.Fixtures.MIB;
import static dev.cryo.planner.domain.Fixtures.TARGET;
import static dev.cryo.planner.domain.Fixtures.deduction;
import static dev.cryo.planner.domain.Fixtures.graded;
import static dev.cryo.planner.domain.Fixtures.partition;
import static dev.cryo.planner.domain.Fixtures.scan;
import static dev.cryo.planner.domain.Fixtures.warning;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlannerTest {

    /** One check per operation, so that any subset of operations can be asked for. */
    private static final Map<Operation, Check> CHECK_OF = Map.of(
            Operation.CONVERT_DELETES, Check.EQUALITY_DELETES,
            Operation.REWRITE_POSITION_DELETES, Check.POSITION_DELETES,
            Operation.OPTIMIZE, Check.SMALL_FILES,
            Operation.COMPUTE_STATISTICS, Check.MISSING_STATISTICS,
            Operation.OPTIMIZE_MANIFESTS, Check.MANIFEST_COUNT,
            Operation.EXPIRE_SNAPSHOTS, Check.SNAPSHOT_COUNT,
            Operation.REMOVE_ORPHAN_FILES, Check.ORPHAN_FILES);

    /** A partition every partition-scoped operation selects: small files and both kinds of deletes. */
    private static final TableScanned EVERYTHING_TO_DO = scan(List.of(BY_REGION),
            List.of(partition(0, List.of("eu"), 10, 100 * MIB, 3, 2)));

    @Test
    void aHealthyTableGetsNoPlan() {
        TableGraded healthy = graded();
        assertThat(healthy.grade()).isEqualTo(Grade.A);

        Planning planning = Planner.plan(healthy, EVERYTHING_TO_DO, PlanningPolicy.DEFAULTS);

        assertThat(planning.hasPlan()).isFalse();
        assertThat(planning.operations()).isEmpty();
        assertThat(planning.expectedScore()).isEqualTo(100);
        assertThat(planning.notes()).containsExactly("no deduction (grade A, score 100): a healthy table gets no plan");
        assertThatThrownBy(() -> planning.toEvent("p", AT, null, null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Cannot publish a plan for lake.sales.orders: it has no operation");
    }

    @Test
    void aFindingHeldByPolicyIsNeitherPlannedNorPromisedAndTheNotesSayWhy() {
        HeldFinding young = new HeldFinding(Check.SNAPSHOT_COUNT, Severity.WARNING, 187, 100, "count",
                Operation.EXPIRE_SNAPSHOTS, "the table's history.expire.max-snapshot-age-ms = 7 days",
                "all 187 snapshots are younger than the retention of 7 days");
        TableGraded graded = new TableGraded(Fixtures.TABLE, Fixtures.SCAN_ID, 42L, AT, 92, Grade.A, 1.0,
                List.of(warning(Check.SMALL_FILES)), List.of(), List.of(young), List.of());

        Planning planning = Planner.plan(graded, EVERYTHING_TO_DO, PlanningPolicy.DEFAULTS, Trigger.OPERATOR_REQUEST);

        assertThat(planning.operations()).extracting(PlannedOperation::operation).containsExactly(Operation.OPTIMIZE);
        assertThat(planning.expectedScore()).isEqualTo(100);
        assertThat(planning.notes()).startsWith("snapshot-count is held by policy, not planned: the table's"
                + " history.expire.max-snapshot-age-ms = 7 days");
    }

    @Test
    void aGradeATableWithAWarningIsLeftAloneUnlessAnOperatorAsks() {
        TableGraded almostPerfect = graded(warning(Check.ORPHAN_FILES));
        assertThat(almostPerfect.grade()).isEqualTo(Grade.A);

        Planning flow = Planner.plan(almostPerfect, EVERYTHING_TO_DO, PlanningPolicy.DEFAULTS);
        assertThat(flow.hasPlan()).isFalse();
        assertThat(flow.expectedScore()).isEqualTo(92);
        assertThat(flow.notes()).containsExactly("grade A (score 92): a healthy table gets no plan; an operator's fix "
                + "now plans its 1 deduction(s) anyway");

        Planning fixNow = Planner.plan(almostPerfect, EVERYTHING_TO_DO, PlanningPolicy.DEFAULTS,
                Trigger.ofActor("operator:alice"));
        assertThat(fixNow.operations()).extracting(PlannedOperation::operation)
                .containsExactly(Operation.REMOVE_ORPHAN_FILES);
        assertThat(fixNow.expectedScore()).isEqualTo(100);
        assertThat(Trigger.ofActor(null)).isEqualTo(Trigger.EVENT_FLOW);
    }

    @Test
    void everySubsetOfOperationsComesOutDeduplicatedInTheFixedOrder() {
        Operation[] all = Operation.values();
        Random random = new Random(7);
        int subsets = 0;
        for (int mask = 1; mask < 1 << all.length; mask++) {
            EnumSet<Operation> subset = EnumSet.noneOf(Operation.class);
            for (int bit = 0; bit < all.length; bit++) {
                if ((mask & 1 << bit) != 0) {
                    subset.add(all[bit]);
                }
            }
            // Deductions arrive worst first, not in operation order, and may repeat an operation.
            List<Deduction> deductions = new ArrayList<>();
            for (Operation operation : subset) {
                deductions.add(deduction(CHECK_OF.get(operation), Severity.CRITICAL));
                if (random.nextBoolean()) {
                    deductions.add(warning(CHECK_OF.get(operation)));
                }
            }
            Collections.shuffle(deductions, random);

            Planning planning = Planner.plan(graded(deductions.toArray(Deduction[]::new)), EVERYTHING_TO_DO,
                    PlanningPolicy.DEFAULTS);
            MaintenancePlanned event = planning.toEvent("plan-" + mask, AT, null, null);

            assertThat(event.operationList()).as("subset %s", subset)
                    .containsExactlyElementsOf(Arrays.stream(all).filter(subset::contains).toList());
            subsets++;
        }
        assertThat(subsets).isEqualTo(127);
    }

    @Test
    void thePlanSaysWhichSnapshotItsScanSawAndWhenTheScanBegan() {
        MaintenancePlanned event = Planner.plan(graded(deduction(Check.SMALL_FILES, Severity.CRITICAL)), EVERYTHING_TO_DO,
                PlanningPolicy.DEFAULTS).toEvent("plan", AT, null, null);

        // The fixture's scan finished at AT after 50 ms: it read the table's metadata from AT - 50 ms on.
        assertThat(event.snapshotId()).isEqualTo(EVERYTHING_TO_DO.snapshotId());
        assertThat(event.scanStartedAt()).isEqualTo(AT.minusMillis(50));
    }

    @Test
    void reasonsAreTheChecksOfTheOperationAndPointsComeBackUpTo100() {
        TableGraded graded = graded(deduction(Check.SMALL_FILES, Severity.CRITICAL), warning(Check.FILE_COUNT),
                warning(Check.SNAPSHOT_AGE), deduction(Check.SNAPSHOT_COUNT, Severity.CRITICAL));
        assertThat(graded.score()).isEqualTo(44);

        Planning planning = Planner.plan(graded, EVERYTHING_TO_DO, PlanningPolicy.DEFAULTS);

        assertThat(planning.operations()).extracting(PlannedOperation::operation)
                .containsExactly(Operation.OPTIMIZE, Operation.EXPIRE_SNAPSHOTS);
        assertThat(planning.operations().get(0).reasons()).containsExactly(Check.SMALL_FILES, Check.FILE_COUNT);
        assertThat(planning.operations().get(1).reasons()).containsExactly(Check.SNAPSHOT_AGE, Check.SNAPSHOT_COUNT);
        assertThat(planning.expectedScore()).isEqualTo(100);
    }

    @Test
    void anOperationWithNothingToSelectIsLeftOutAndItsPointsAreNotPromised() {
        // 4 small files, no deletes: under the default threshold of 5.
        TableScanned scan = scan(List.of(BY_REGION), List.of(partition("eu", 4, 40 * MIB)));
        TableGraded graded = graded(warning(Check.FILE_COUNT), warning(Check.MANIFEST_COUNT));

        Planning planning = Planner.plan(graded, scan, PlanningPolicy.DEFAULTS);

        assertThat(planning.operations()).extracting(PlannedOperation::operation)
                .containsExactly(Operation.OPTIMIZE_MANIFESTS);
        assertThat(planning.expectedScore()).isEqualTo(92);
        assertThat(planning.notes()).contains("optimize left out: no partition has 5 or more small files or delete "
                + "files (cryo.planner.small-file-threshold)");

        Planning nothing = Planner.plan(graded(deduction(Check.FILE_COUNT, Severity.CRITICAL)), scan,
                PlanningPolicy.DEFAULTS);
        assertThat(nothing.hasPlan()).isFalse();
        assertThat(nothing.expectedScore()).isEqualTo(80);
        assertThat(nothing.notes()).contains("no plan: no operation has anything to do");
    }

    @Test
    void estimatesAddUpFromPartitionsToChunksToThePlan() {
        TableScanned scan = scan(List.of(BY_REGION), List.of(
                partition("eu", 10, 100 * MIB),
                partition("us", 20, 600 * MIB),
                partition(0, List.of("apac"), 1, 10 * MIB, 2, 0)));
        Planning planning = Planner.plan(graded(warning(Check.SMALL_FILES), warning(Check.POSITION_DELETES)),
                scan, PlanningPolicy.DEFAULTS);

        PlannedOperation optimize = planning.operations().get(1);
        assertThat(optimize.operation()).isEqualTo(Operation.OPTIMIZE);
        // us: 20 small files (600 MiB -> 2 files); eu: 10 (100 MiB -> 1); apac has deletes, so all its
        // 3 data files are rewritten (10 MiB + 2 x 512 MiB -> 3 files).
        assertThat(optimize.chunks()).hasSize(1);
        Chunk chunk = optimize.chunks().get(0);
        assertThat(chunk.partitions()).extracting(p -> p.fields().get(0).value()).containsExactly("us", "eu", "apac");
        assertThat(chunk.estimate()).isEqualTo(new Estimate(33, 710 * MIB + 2 * TARGET, 2, 6));
        assertThat(optimize.estimate()).isEqualTo(chunk.estimate());
        assertThat(optimize.parameters()).isEqualTo(new OperationParameters(TARGET, null, null, null));

        PlannedOperation positionDeletes = planning.operations().get(0);
        assertThat(positionDeletes.operation()).isEqualTo(Operation.REWRITE_POSITION_DELETES);
        // apac's 3 data files, which its 2 position delete files may touch, are rewritten with them applied.
        assertThat(positionDeletes.estimate()).isEqualTo(new Estimate(3, 10 * MIB + 2 * TARGET, 2, 3));
        assertThat(positionDeletes.parameters()).isEqualTo(OperationParameters.NONE);

        assertThat(planning.estimate()).isEqualTo(optimize.estimate().plus(positionDeletes.estimate()));
    }

    @Test
    void wholeTableOperationsTakeTheirParametersFromThePolicyAndTheTableProperties() {
        TableGraded graded = graded(warning(Check.MISSING_STATISTICS), warning(Check.MANIFEST_COUNT),
                warning(Check.SNAPSHOT_COUNT), warning(Check.ORPHAN_FILES));
        PlanningPolicy policy = new PlanningPolicy(5, 10 * Fixtures.GIB, 64, 2000, Duration.ofDays(5), 20, Duration.ofDays(4));

        Planning fromPolicy = Planner.plan(graded, EVERYTHING_TO_DO, policy);
        assertThat(fromPolicy.operations()).extracting(PlannedOperation::parameters).containsExactly(
                OperationParameters.NONE,
                OperationParameters.NONE,
                new OperationParameters(null, Duration.ofDays(5), 20, null),
                new OperationParameters(null, null, null, Duration.ofDays(4)));
        assertThat(fromPolicy.operations()).allSatisfy(operation -> {
            assertThat(operation.chunks()).isEmpty();
            assertThat(operation.estimate()).isEqualTo(Estimate.ZERO);
        });

        Planning defaults = Planner.plan(graded, EVERYTHING_TO_DO, PlanningPolicy.DEFAULTS);
        assertThat(defaults.operations().get(2).parameters())
                .isEqualTo(new OperationParameters(null, Duration.ofDays(7), 10, null));
        assertThat(defaults.operations().get(3).parameters())
                .isEqualTo(new OperationParameters(null, null, null, Duration.ofDays(3)));

        TableScanned withProperties = scan(List.of(BY_REGION), EVERYTHING_TO_DO.partitions(), Map.of(
                Planner.MAX_SNAPSHOT_AGE_PROPERTY, "86400000", Planner.MIN_SNAPSHOTS_TO_KEEP_PROPERTY, "3"));
        assertThat(Planner.plan(graded, withProperties, policy).operations().get(2).parameters())
                .isEqualTo(new OperationParameters(null, Duration.ofDays(1), 3, null));

        TableScanned badProperties = scan(List.of(BY_REGION), EVERYTHING_TO_DO.partitions(), Map.of(
                Planner.MAX_SNAPSHOT_AGE_PROPERTY, "a week", Planner.MIN_SNAPSHOTS_TO_KEEP_PROPERTY, "0"));
        Planning fallback = Planner.plan(graded, badProperties, policy);
        assertThat(fallback.operations().get(2).parameters())
                .isEqualTo(new OperationParameters(null, Duration.ofDays(5), 20, null));
        assertThat(fallback.notes()).contains(
                "table property history.expire.max-snapshot-age-ms='a week' is not a number of milliseconds; "
                        + "using cryo.planner.snapshot-retention PT120H",
                "table property history.expire.min-snapshots-to-keep='0' is not a number from 1 to 999999999; "
                        + "using cryo.planner.retain-last 20");
    }

    @Test
    void theSameScanAlwaysYieldsTheSamePlanWhateverThePartitionOrder() {
        List<PartitionStats> partitions = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            partitions.add(partition(0, List.of("r" + i), i % 7 + 3, (i % 5 + 1) * 300 * MIB, i % 3, i % 4 == 0 ? 1 : 0));
        }
        TableGraded graded = graded(warning(Check.SMALL_FILES), warning(Check.EQUALITY_DELETES),
                warning(Check.POSITION_DELETES));
        PlanningPolicy policy = new PlanningPolicy(5, 2 * Fixtures.GIB, 4, 2000, Duration.ofDays(7), 10, Duration.ofDays(3));
        Planning first = Planner.plan(graded, scan(List.of(BY_REGION), partitions), policy);

        List<PartitionStats> shuffled = new ArrayList<>(partitions);
        Collections.shuffle(shuffled, new Random(3));
        Planning second = Planner.plan(graded, scan(List.of(BY_REGION), shuffled), policy);

        assertThat(second).isEqualTo(first);
        assertThat(first.operations()).hasSize(3);
    }

    @Test
    void aGradeAndAScanThatDoNotBelongTogetherAreRejected() {
        TableScanned other = new TableScanned(Fixtures.TABLE, "scan-2", AT, Duration.ZERO, 2, null, null, null, "s3://x",
                EVERYTHING_TO_DO.fileSizes(), EVERYTHING_TO_DO.totals(), List.of(), List.of(), null, null, null, null,
                null, null);

        assertThatThrownBy(() -> Planner.plan(graded(warning(Check.SMALL_FILES)), other, PlanningPolicy.DEFAULTS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot plan lake.sales.orders from scan scan-2 of lake.sales.orders: the grade is of scan scan-1");
    }

    @Test
    void aPartitionOfASpecTheScanDoesNotListIsRejected() {
        TableScanned scan = scan(List.of(BY_REGION), List.of(partition(3, List.of("eu"), 9, 90 * MIB, 0, 0)));

        assertThatThrownBy(() -> Planner.plan(graded(deduction(Check.SMALL_FILES, Severity.CRITICAL)), scan,
                PlanningPolicy.DEFAULTS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot plan lake.sales.orders from scan scan-1: partition [eu] uses spec 3, "
                        + "which the scan does not list");
    }
}
