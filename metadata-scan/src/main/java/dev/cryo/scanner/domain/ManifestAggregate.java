package dev.cryo.scanner.domain;

import dev.cryo.contracts.event.PartitionStats;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What one manifest contributes to a scan: per partition, its live files. Manifests are
 * immutable, so an aggregate computed once for a manifest path (under given file-size terms)
 * holds forever.
 *
 * @param manifestPath the manifest's location
 * @param partitions one entry per partition with live files in this manifest
 */
public record ManifestAggregate(String manifestPath, List<PartitionStats> partitions) {
    public ManifestAggregate {
        requireNonNull(manifestPath, "manifestPath is null");
        partitions = List.copyOf(requireNonNull(partitions, "partitions is null"));
    }
}
