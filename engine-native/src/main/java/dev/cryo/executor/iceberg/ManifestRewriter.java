package dev.cryo.executor.iceberg;

import dev.cryo.contracts.event.FileCounts;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteManifests;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.util.StructLikeMap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * optimize_manifests: rewrites the data manifests so that each covers a contiguous range of
 * partitions. Partitions are sorted per spec and cut into groups of about one target-size
 * manifest of entries each (from the current manifests' bytes per entry), and the rewrite is
 * clustered by group, so a query's partition filter prunes most manifests. Metadata only.
 */
final class ManifestRewriter {

    private final Table table;

    ManifestRewriter(Table table) {
        this.table = table;
    }

    StepResult rewrite(Map<String, String> tags) {
        table.refresh();
        Snapshot snapshot = table.currentSnapshot();
        if (snapshot == null) {
            return StepResult.nothingToDo("the table has no snapshot");
        }
        List<ManifestFile> manifests = snapshot.dataManifests(table.io());
        if (manifests.size() <= 1) {
            return StepResult.nothingToDo("the snapshot has " + manifests.size() + " data manifest(s)");
        }
        long entries = 0;
        long bytes = 0;
        Map<Integer, StructLikeMap<Long>> countsBySpec = new HashMap<>();
        for (ManifestFile manifest : manifests) {
            bytes += manifest.length();
            try (ManifestReader<DataFile> reader = ManifestFiles.read(manifest, table.io(), table.specs())) {
                for (DataFile file : reader) {
                    entries++;
                    StructLikeMap<Long> counts = countsBySpec.computeIfAbsent(file.specId(),
                            spec -> StructLikeMap.create(table.specs().get(spec).partitionType()));
                    counts.merge(PartitionTuple.copyOf(file.partition()), 1L, Long::sum);
                }
            } catch (IOException e) {
                throw new CryoException(ExecutorErrorCode.STORAGE_FAILURE, "Cannot read manifest " + manifest.path()
                        + ": " + e.getMessage(), e);
            }
        }
        long targetBytes = PropertyUtil.propertyAsLong(table.properties(), TableProperties.MANIFEST_TARGET_SIZE_BYTES,
                TableProperties.MANIFEST_TARGET_SIZE_BYTES_DEFAULT);
        long entriesPerManifest = Math.max(1, entries == 0 ? 1 : targetBytes / Math.max(1, bytes / entries));
        Map<Integer, StructLikeMap<Integer>> groups = new HashMap<>();
        countsBySpec.forEach((specId, counts) -> groups.put(specId, group(table.specs().get(specId), counts,
                entriesPerManifest)));

        RewriteManifests rewrite = table.rewriteManifests()
                .rewriteIf(manifest -> manifest.content() == ManifestContent.DATA)
                .clusterBy(file -> file.specId() + "/" + group(groups, file));
        tags.forEach(rewrite::set);
        // Iceberg removes the manifests it wrote only after a clean failure (strict cleanup).
        TableFiles.commit(table, rewrite, "the manifest rewrite", "every manifest written for it is kept");
        table.refresh();
        int after = table.currentSnapshot().dataManifests(table.io()).size();
        long afterBytes = table.currentSnapshot().dataManifests(table.io()).stream().mapToLong(ManifestFile::length).sum();
        return new StepResult(new FileCounts(manifests.size(), bytes, 0, entries), new FileCounts(after, afterBytes, 0,
                entries), table.currentSnapshot().snapshotId(), 0, "rewrote " + manifests.size() + " data manifests into "
                + after + ", clustered by partition", List.of());
    }

    /** The file's group; files committed since the grouping (a concurrent append) form a group of their own. */
    private static int group(Map<Integer, StructLikeMap<Integer>> groups, DataFile file) {
        StructLikeMap<Integer> ofSpec = groups.get(file.specId());
        Integer group = ofSpec == null ? null : ofSpec.get(file.partition());
        return group == null ? -1 : group;
    }

    private static StructLikeMap<Integer> group(PartitionSpec spec, StructLikeMap<Long> counts, long entriesPerManifest) {
        List<StructLike> partitions = new ArrayList<>(counts.keySet());
        partitions.sort(Comparators.forType(spec.partitionType()));
        StructLikeMap<Integer> groups = StructLikeMap.create(spec.partitionType());
        int group = 0;
        long inGroup = 0;
        for (StructLike partition : partitions) {
            long count = counts.get(partition);
            if (inGroup > 0 && inGroup + count > entriesPerManifest) {
                group++;
                inGroup = 0;
            }
            groups.put(partition, group);
            inGroup += count;
        }
        return groups;
    }
}
