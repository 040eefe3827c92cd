package dev.cryo.planner.domain;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.PlannedOperation;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.cryo.planner.domain.Fixtures.BY_REGION;
import static dev.cryo.planner.domain.Fixtures.MIB;
import static dev.cryo.planner.domain.Fixtures.graded;
import static dev.cryo.planner.domain.Fixtures.scan;
import static dev.cryo.planner.domain.Fixtures.warning;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packing invariants for random partition statistics and settings, checked on the whole
 * planner's output: each partition is addressed back through its identity predicate.
 */
class PlanningPropertiesTest {

    @Property(tries = 300)
    void chunksHoldEverySelectedPartitionOnceWithinBudgetAndNothingUnderTheThreshold(
            @ForAll("partitionStatistics") List<PartitionStats> partitions,
            @ForAll @IntRange(min = 1, max = 12) int smallFileThreshold,
            @ForAll @LongRange(min = 1, max = 8192) long chunkBudgetMib,
            @ForAll @IntRange(min = 1, max = 70) int partitionsPerChunk,
            @ForAll @IntRange(min = 1, max = 250) int maxPartitionsPerOperation) {
        PlanningPolicy policy = new PlanningPolicy(smallFileThreshold, chunkBudgetMib * MIB, partitionsPerChunk,
                maxPartitionsPerOperation, Duration.ofDays(7), 10, Duration.ofDays(3));
        Map<String, PartitionStats> byValue = new HashMap<>();
        partitions.forEach(partition -> byValue.put(partition.values().get(0), partition));

        Planning planning = Planner.plan(graded(warning(Check.SMALL_FILES), warning(Check.EQUALITY_DELETES),
                warning(Check.POSITION_DELETES)), scan(List.of(BY_REGION), partitions), policy);

        for (Operation operation : List.of(Operation.CONVERT_DELETES, Operation.REWRITE_POSITION_DELETES, Operation.OPTIMIZE)) {
            List<PartitionStats> qualifying = partitions.stream()
                    .filter(partition -> !underThreshold(partition, smallFileThreshold))
                    .filter(partition -> operation != Operation.CONVERT_DELETES || partition.equalityDeleteFiles() > 0)
                    .filter(partition -> operation != Operation.REWRITE_POSITION_DELETES || partition.positionDeleteFiles() > 0)
                    .toList();
            List<Chunk> chunks = planned(planning, operation).map(PlannedOperation::chunks).orElse(List.of());
            List<PartitionStats> selected = new ArrayList<>();
            for (Chunk chunk : chunks) {
                List<PartitionStats> members = chunk.partitions().stream()
                        .map(PartitionPredicate::fields).map(fields -> byValue.get(fields.get(0).value())).toList();
                long chunkInput = members.stream().mapToLong(member -> inputBytes(operation, member)).sum();
                assertThat(chunk.estimate().inputBytes()).isEqualTo(chunkInput);
                assertThat(members.size() == 1 || chunkInput <= policy.chunkBudgetBytes())
                        .as("%s chunk %d: %d partitions, %d bytes, budget %d", operation, chunk.index(), members.size(),
                                chunkInput, policy.chunkBudgetBytes())
                        .isTrue();
                assertThat(members).hasSizeLessThanOrEqualTo(partitionsPerChunk);
                selected.addAll(members);
            }
            // Exactly once each, never one under the threshold, as many as the cap allows ...
            assertThat(selected).doesNotHaveDuplicates();
            assertThat(selected).noneMatch(partition -> underThreshold(partition, smallFileThreshold));
            assertThat(qualifying).containsAll(selected);
            assertThat(selected).hasSize(Math.min(qualifying.size(), maxPartitionsPerOperation));
            // ... and the ones left for a later plan rank no worse than any taken: fewer small files, or as
            // many and no more delete files.
            List<PartitionStats> left = qualifying.stream().filter(partition -> !selected.contains(partition)).toList();
            for (PartitionStats waiting : left) {
                assertThat(selected).allMatch(taken -> taken.smallFiles() > waiting.smallFiles()
                        || taken.smallFiles() == waiting.smallFiles() && taken.deleteFiles() >= waiting.deleteFiles());
            }
        }
    }

    // The rules of SCORING.md and the README, written out here rather than taken from the code under test.

    private static boolean underThreshold(PartitionStats partition, int smallFileThreshold) {
        // one small file has nothing to merge with, whatever the threshold
        return partition.smallFiles() < Math.max(2, smallFileThreshold)
                && partition.positionDeleteFiles() == 0 && partition.equalityDeleteFiles() == 0;
    }

    private static long inputBytes(Operation operation, PartitionStats partition) {
        boolean hasDeletes = partition.positionDeleteFiles() + partition.equalityDeleteFiles() > 0;
        return switch (operation) {
            case OPTIMIZE -> hasDeletes ? partition.dataBytes() : partition.smallFileBytes();
            case CONVERT_DELETES, REWRITE_POSITION_DELETES -> partition.dataBytes();
            default -> 0;
        };
    }

    @Provide
    Arbitrary<List<PartitionStats>> partitionStatistics() {
        Arbitrary<PartitionStats> partition = Combinators.combine(
                Arbitraries.longs().between(0, 30),              // small files
                Arbitraries.longs().between(0, 2048),            // MiB per small file, at most
                Arbitraries.longs().between(0, 20),              // other data files
                Arbitraries.longs().between(0, 3),               // position delete files
                Arbitraries.longs().between(0, 2)                // equality delete files
        ).as((small, smallMib, others, positionDeletes, equalityDeletes) -> new PartitionStats(0, List.of("p"),
                small + others, small * smallMib * MIB + others * 600 * MIB, 1, small, small * smallMib * MIB, 0,
                List.of(), positionDeletes, positionDeletes, equalityDeletes, equalityDeletes));
        return partition.list().ofMaxSize(200).map(PlanningPropertiesTest::withUniqueValues);
    }

    private static List<PartitionStats> withUniqueValues(List<PartitionStats> partitions) {
        List<PartitionStats> unique = new ArrayList<>();
        for (int i = 0; i < partitions.size(); i++) {
            PartitionStats p = partitions.get(i);
            unique.add(new PartitionStats(0, List.of("p" + i), p.dataFiles(), p.dataBytes(), p.records(), p.smallFiles(),
                    p.smallFileBytes(), p.oversizedFiles(), p.sizeHistogram(), p.positionDeleteFiles(),
                    p.positionDeleteRecords(), p.equalityDeleteFiles(), p.equalityDeleteRecords()));
        }
        return unique;
    }

    private static Optional<PlannedOperation> planned(Planning planning, Operation operation) {
        return planning.operations().stream().filter(planned -> planned.operation() == operation).findFirst();
    }
}
