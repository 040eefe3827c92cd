package dev.cryo.planner.domain;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.PartitionStats;

import java.util.Comparator;
import java.util.List;

/**
 * Which partitions a partition-scoped operation rewrites, worst first (SCORING.md, Planning).
 *
 * <p>Ranking: most small files first, then most delete files; ties are broken by spec id and
 * partition values so that the same scan always yields the same plan.
 *
 * <p>Threshold: a partition with fewer small files than the threshold (never fewer than two: one
 * small file has nothing to merge with) and no delete files is left alone. On top of that, {@code convert_deletes} takes only partitions with equality
 * delete files and {@code rewrite_position_deletes} only partitions with position delete files.
 *
 * <p>Input (what counts against the chunk budget):
 * <ul>
 *   <li>{@code optimize}: the small files; in a partition with delete files every data file, since
 *       applying deletes rewrites the files they touch and the scan cannot tell which those are;</li>
 *   <li>{@code convert_deletes}: every data file of the partition: the rows an equality delete hits
 *       must be looked up in them (and Trino and Spark convert by rewriting them);</li>
 *   <li>{@code rewrite_position_deletes}: no data file is read or written, and the scan does not
 *       measure delete-file bytes, so only the per-chunk partition cap bounds these chunks.</li>
 * </ul>
 * Expected output files: {@code ceil(input bytes / target file size)} data files for the rewrites of
 * data files, none for {@code rewrite_position_deletes}.
 */
final class PartitionSelection {

    static final Comparator<PartitionStats> RANKING = Comparator
            .comparingLong(PartitionStats::smallFiles).reversed()
            .thenComparing(Comparator.comparingLong(PartitionStats::deleteFiles).reversed())
            .thenComparingInt(PartitionStats::specId)
            .thenComparing(PartitionStats::values, PartitionSelection::compareValues);

    /** Small files that compaction can merge: a partition's lone small file is as compact as it gets. */
    static final int MINIMUM_MERGEABLE_SMALL_FILES = 2;

    /**
     * True when a partition is under the threshold: fewer small files than the threshold (and than
     * two, which is what a merge needs) and no delete files.
     */
    static boolean underThreshold(PartitionStats partition, int smallFileThreshold) {
        return partition.smallFiles() < Math.max(MINIMUM_MERGEABLE_SMALL_FILES, smallFileThreshold)
                && partition.deleteFiles() == 0;
    }

    /** The partitions {@code operation} rewrites, ranked, with their cost. */
    static List<Candidate> select(Operation operation, List<PartitionStats> partitions, int smallFileThreshold,
                                  long targetFileSizeBytes) {
        if (operation.scope() != Operation.Scope.PARTITIONS) {
            throw new IllegalArgumentException(operation + " works on the whole table: it selects no partition");
        }
        return partitions.stream()
                .filter(partition -> !underThreshold(partition, smallFileThreshold))
                .filter(partition -> switch (operation) {
                    case CONVERT_DELETES -> partition.equalityDeleteFiles() > 0;
                    case REWRITE_POSITION_DELETES -> partition.positionDeleteFiles() > 0;
                    default -> true;
                })
                .sorted(RANKING)
                .map(partition -> new Candidate(partition, estimate(operation, partition, targetFileSizeBytes)))
                .toList();
    }

    static Estimate estimate(Operation operation, PartitionStats partition, long targetFileSizeBytes) {
        return switch (operation) {
            case OPTIMIZE -> partition.deleteFiles() > 0
                    ? rewrite(partition.dataFiles(), partition.dataBytes(), partition.deleteFiles(), targetFileSizeBytes)
                    : rewrite(partition.smallFiles(), partition.smallFileBytes(), 0, targetFileSizeBytes);
            case CONVERT_DELETES -> rewrite(partition.dataFiles(), partition.dataBytes(),
                    partition.equalityDeleteFiles(), targetFileSizeBytes);
            // The native engine applies position deletes by rewriting the data files they touch, which the
            // scan cannot name: all data files are input. Spark's rewrite_position_delete_files reads only the
            // delete files, so this is its upper bound; the chunk budget and the governor's admission count it.
            case REWRITE_POSITION_DELETES -> rewrite(partition.dataFiles(), partition.dataBytes(),
                    partition.positionDeleteFiles(), targetFileSizeBytes);
            default -> throw new IllegalArgumentException(operation + " works on the whole table");
        };
    }

    private static Estimate rewrite(long files, long bytes, long deleteFiles, long targetFileSizeBytes) {
        return new Estimate(files, bytes, deleteFiles, ceilDivide(bytes, targetFileSizeBytes));
    }

    static long ceilDivide(long bytes, long targetFileSizeBytes) {
        return bytes / targetFileSizeBytes + (bytes % targetFileSizeBytes == 0 ? 0 : 1);
    }

    private static int compareValues(List<String> left, List<String> right) {
        for (int i = 0; i < Math.min(left.size(), right.size()); i++) {
            String a = left.get(i);
            String b = right.get(i);
            if (a == null || b == null) {
                if (a != b) {
                    return a == null ? -1 : 1;
                }
                continue;
            }
            int compared = a.compareTo(b);
            if (compared != 0) {
                return compared;
            }
        }
        return Integer.compare(left.size(), right.size());
    }

    private PartitionSelection() {
    }
}
