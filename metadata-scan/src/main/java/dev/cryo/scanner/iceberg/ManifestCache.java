package dev.cryo.scanner.iceberg;

import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.scanner.domain.ManifestAggregate;

import java.util.Collection;
import java.util.Map;

/**
 * Aggregates of manifests already read. Manifests never change once written, so an aggregate
 * is valid forever for its path; it depends on the file-size terms (small and oversized counts,
 * the histogram), which are part of the key.
 */
public interface ManifestCache {

    /** The cached aggregates among these manifests, by path. */
    Map<String, ManifestAggregate> find(Collection<String> manifestPaths, FileSizeTerms terms);

    void store(Collection<ManifestAggregate> aggregates, FileSizeTerms terms);

    /** A cache that remembers nothing: every scan reads every manifest. */
    static ManifestCache none() {
        return new ManifestCache() {
            @Override
            public Map<String, ManifestAggregate> find(Collection<String> manifestPaths, FileSizeTerms terms) {
                return Map.of();
            }

            @Override
            public void store(Collection<ManifestAggregate> aggregates, FileSizeTerms terms) {
            }
        };
    }
}
