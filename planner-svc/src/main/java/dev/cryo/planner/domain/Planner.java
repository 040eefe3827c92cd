package dev.cryo.planner.domain;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PartitionSpecInfo;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.scoring.Grading;
import dev.cryo.scoring.Scorer;
import dev.cryo.scoring.SnapshotExpiry;
import dev.cryo.scoring.TablePolicy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Turns a grade into a maintenance plan, from the stored scan the grade names and nothing else:
 * operations from the deductions, deduplicated and in the fixed order; partitions for the
 * partition-scoped ones, ranked and packed into chunks ({@link PartitionSelection},
 * {@link ChunkPacker}); predicates as data ({@link PartitionPredicates}); parameters from the
 * table's policy. A table without deductions gets no plan, and neither does a grade-A table (a
 * warning or two) unless an operator asked for it: the planner never touches a healthy table on
 * its own.
 */
public final class Planner {

    /** Table property that overrides {@link PlanningPolicy#snapshotRetention()} (Iceberg's own key). */
    public static final String MAX_SNAPSHOT_AGE_PROPERTY = "history.expire.max-snapshot-age-ms";
    /** Table property that overrides {@link PlanningPolicy#retainLast()} (Iceberg's own key). */
    public static final String MIN_SNAPSHOTS_TO_KEEP_PROPERTY = "history.expire.min-snapshots-to-keep";

    /** Plans one graded scan of the event flow. */
    public static Planning plan(TableGraded graded, TableScanned scan, PlanningPolicy policy) {
        return plan(graded, scan, policy, Trigger.EVENT_FLOW);
    }

    /**
     * Plans one graded scan.
     *
     * @throws IllegalArgumentException when the grade and the scan do not belong together, or the scan
     *                                  names a partition it cannot address (unknown spec, wrong arity)
     */
    public static Planning plan(TableGraded graded, TableScanned scan, PlanningPolicy policy, Trigger trigger) {
        if (!graded.table().equals(scan.table()) || !graded.scanId().equals(scan.scanId())) {
            throw new IllegalArgumentException("Cannot plan " + graded.table() + " from scan " + scan.scanId()
                    + " of " + scan.table() + ": the grade is of scan " + graded.scanId());
        }
        List<String> notes = new ArrayList<>();
        graded.held().forEach(held -> notes.add(held.check().id() + " is held by policy, not planned: " + held.heldBy()));
        List<Operation> requested = Operation.inFixedOrder(graded.deductions().stream().map(Deduction::fix).toList());
        if (requested.isEmpty()) {
            notes.add("no deduction (grade " + graded.grade() + ", score " + graded.score()
                    + "): a healthy table gets no plan");
            return new Planning(graded.table(), scan.scanId(), graded.snapshotId(), scanStartedAt(scan), graded.score(), graded.grade(),
                    graded.score(), List.of(), Estimate.ZERO, notes);
        }
        if (graded.grade() == Grade.A && trigger == Trigger.EVENT_FLOW) {
            notes.add("grade A (score " + graded.score() + "): a healthy table gets no plan; an operator's fix now "
                    + "plans its " + graded.deductions().size() + " deduction(s) anyway");
            return new Planning(graded.table(), scan.scanId(), graded.snapshotId(), scanStartedAt(scan), graded.score(), graded.grade(),
                    graded.score(), List.of(), Estimate.ZERO, notes);
        }
        Map<Integer, PartitionSpecInfo> specs = scan.specs().stream()
                .collect(Collectors.toMap(PartitionSpecInfo::specId, Function.identity(), (first, second) -> first));
        List<PlannedOperation> operations = new ArrayList<>();
        Map<Operation, List<PartitionStats>> selected = new EnumMap<>(Operation.class);
        for (Operation operation : requested) {
            List<Check> reasons = reasons(graded.deductions(), operation);
            if (operation.scope() == Operation.Scope.PARTITIONS) {
                List<Chunk> chunks = chunks(operation, scan, specs, policy, notes, selected);
                if (chunks.isEmpty()) {
                    notes.add(operation + " left out: no partition has " + policy.smallFileThreshold()
                            + " or more small files or " + deleteKind(operation)
                            + " (cryo.planner.small-file-threshold)");
                    continue;
                }
                Estimate estimate = chunks.stream().map(Chunk::estimate).reduce(Estimate.ZERO, Estimate::plus);
                operations.add(new PlannedOperation(operation, reasons, chunks,
                        partitionParameters(operation, scan), estimate));
                notes.add(operation + ": " + chunks.stream().mapToInt(chunk -> chunk.partitions().size()).sum()
                        + " partition(s) in " + chunks.size() + " chunk(s)");
            } else {
                operations.add(new PlannedOperation(operation, reasons, List.of(),
                        tableParameters(operation, scan, policy, notes), Estimate.ZERO));
            }
        }
        Estimate estimate = operations.stream().map(PlannedOperation::estimate).reduce(Estimate.ZERO, Estimate::plus);
        if (operations.isEmpty()) {
            notes.add("no plan: no operation has anything to do");
            return new Planning(graded.table(), scan.scanId(), graded.snapshotId(), scanStartedAt(scan), graded.score(),
                    graded.grade(), graded.score(), operations, estimate, notes);
        }
        return new Planning(graded.table(), scan.scanId(), graded.snapshotId(), scanStartedAt(scan), graded.score(), graded.grade(),
                expectedScore(graded, scan, policy, operations, selected, notes), operations, estimate, notes);
    }

    /**
     * The grade of the table the plan predicts ({@link Forecast}), by the scorer's rules and the
     * limits the grade names; a grade from a scorer that names no limits gets the points of the
     * planned deductions back, as before.
     */
    private static int expectedScore(TableGraded graded, TableScanned scan, PlanningPolicy policy,
                                     List<PlannedOperation> operations, Map<Operation, List<PartitionStats>> selected,
                                     List<String> notes) {
        Set<Operation> planned = operations.stream().map(PlannedOperation::operation)
                .collect(Collectors.toCollection(LinkedHashSet::new));
        if (graded.limits().isEmpty()) {
            int regained = graded.deductions().stream().filter(deduction -> planned.contains(deduction.fix()))
                    .mapToInt(Deduction::points).sum();
            notes.add("expected score: the planned deductions' points back (the grade names no limits to forecast by)");
            return Math.min(Grade.MAX_SCORE, graded.score() + regained);
        }
        SnapshotExpiry expiry = SnapshotExpiry.defaults(policy.snapshotRetention(), policy.retainLast());
        TableScanned predicted = Forecast.after(scan, operations, selected, expiry.forTable(scan.properties()),
                graded.gradedAt());
        Grading expected = Scorer.grade(predicted, TablePolicy.graded(graded.limits()), expiry, graded.gradedAt());
        notes.add("expected after the plan: " + expected.grade() + " " + expected.score()
                + " (the scorer's rules and limits on the table the plan predicts)");
        expected.deductions().stream().filter(deduction -> planned.contains(deduction.fix())).forEach(deduction ->
                notes.add(deduction.check().id() + " is expected to remain after " + deduction.fix() + ": "
                        + deduction.explanation()));
        return expected.score();
    }

    /** The scan read the table's metadata at or after this time (its end less its duration). */
    private static Instant scanStartedAt(TableScanned scan) {
        return scan.scannedAt().minus(scan.scanDuration());
    }

    private static List<Check> reasons(List<Deduction> deductions, Operation operation) {
        return deductions.stream().filter(deduction -> deduction.fix() == operation).map(Deduction::check)
                .distinct().toList();
    }

    private static List<Chunk> chunks(Operation operation, TableScanned scan, Map<Integer, PartitionSpecInfo> specs,
                                      PlanningPolicy policy, List<String> notes,
                                      Map<Operation, List<PartitionStats>> selected) {
        long target = scan.fileSizes().targetFileSizeBytes();
        List<Candidate> candidates = PartitionSelection.select(operation, scan.partitions(),
                policy.smallFileThreshold(), target);
        if (candidates.size() > policy.maxPartitionsPerOperation()) {
            notes.add(operation + ": " + candidates.size() + " partitions qualify; this plan takes the worst "
                    + policy.maxPartitionsPerOperation() + ", the rest follow in later plans "
                    + "(cryo.planner.max-partitions-per-operation)");
            candidates = candidates.subList(0, policy.maxPartitionsPerOperation());
        }
        selected.put(operation, candidates.stream().map(Candidate::partition).toList());
        List<List<Candidate>> packed = ChunkPacker.pack(candidates, Candidate::inputBytes, policy.chunkBudgetBytes(),
                policy.partitionsPerChunk());
        List<Chunk> chunks = new ArrayList<>();
        for (List<Candidate> members : packed) {
            List<PartitionPredicate> predicates = members.stream()
                    .map(candidate -> predicate(scan, specs, candidate))
                    .toList();
            // Output files are rounded up per partition, not per chunk: a data file never spans two partitions.
            Estimate estimate = members.stream().map(Candidate::estimate).reduce(Estimate.ZERO, Estimate::plus);
            chunks.add(new Chunk(chunks.size(), predicates, estimate));
        }
        return chunks;
    }

    private static PartitionPredicate predicate(TableScanned scan, Map<Integer, PartitionSpecInfo> specs,
                                                Candidate candidate) {
        PartitionSpecInfo spec = specs.get(candidate.partition().specId());
        if (spec == null) {
            throw new IllegalArgumentException("Cannot plan " + scan.table() + " from scan " + scan.scanId()
                    + ": partition " + candidate.partition().values() + " uses spec " + candidate.partition().specId()
                    + ", which the scan does not list");
        }
        return PartitionPredicates.of(spec, candidate.partition().values());
    }

    private static String deleteKind(Operation operation) {
        return switch (operation) {
            case CONVERT_DELETES -> "equality delete files";
            case REWRITE_POSITION_DELETES -> "position delete files";
            default -> "delete files";
        };
    }

    private static OperationParameters partitionParameters(Operation operation, TableScanned scan) {
        // Trino and Spark convert equality deletes by rewriting data files: they need the target size too.
        return operation == Operation.REWRITE_POSITION_DELETES ? OperationParameters.NONE
                : new OperationParameters(scan.fileSizes().targetFileSizeBytes(), null, null, null);
    }

    private static OperationParameters tableParameters(Operation operation, TableScanned scan, PlanningPolicy policy,
                                                       List<String> notes) {
        return switch (operation) {
            case EXPIRE_SNAPSHOTS -> new OperationParameters(null,
                    retention(scan.properties(), policy, notes), retainLast(scan.properties(), policy, notes), null);
            case REMOVE_ORPHAN_FILES -> new OperationParameters(null, null, null, policy.orphanAgeFloor());
            default -> OperationParameters.NONE;
        };
    }

    private static Duration retention(Map<String, String> properties, PlanningPolicy policy, List<String> notes) {
        String text = properties.get(MAX_SNAPSHOT_AGE_PROPERTY);
        if (text == null) {
            return policy.snapshotRetention();
        }
        if (!text.trim().matches("\\d{1,18}")) {
            notes.add("table property " + MAX_SNAPSHOT_AGE_PROPERTY + "='" + text + "' is not a number of "
                    + "milliseconds; using cryo.planner.snapshot-retention " + policy.snapshotRetention());
            return policy.snapshotRetention();
        }
        return Duration.ofMillis(Long.parseLong(text.trim()));
    }

    private static int retainLast(Map<String, String> properties, PlanningPolicy policy, List<String> notes) {
        String text = properties.get(MIN_SNAPSHOTS_TO_KEEP_PROPERTY);
        if (text == null) {
            return policy.retainLast();
        }
        if (!text.trim().matches("0*[1-9]\\d{0,8}")) {
            notes.add("table property " + MIN_SNAPSHOTS_TO_KEEP_PROPERTY + "='" + text + "' is not a number from 1 to "
                    + "999999999; using cryo.planner.retain-last " + policy.retainLast());
            return policy.retainLast();
        }
        return Integer.parseInt(text.trim());
    }

    private Planner() {
    }
}
