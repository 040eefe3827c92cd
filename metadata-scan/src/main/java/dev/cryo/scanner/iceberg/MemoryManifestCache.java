package dev.cryo.scanner.iceberg;

import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.scanner.domain.ManifestAggregate;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A bounded in-memory cache (least recently used out) in front of another cache, usually the
 * PostgreSQL one: a rescan in the same process then reads neither manifests nor the database
 * for manifests it has seen.
 */
public final class MemoryManifestCache implements ManifestCache {

    private final ManifestCache next;
    private final Map<String, ManifestAggregate> entries;

    public MemoryManifestCache(ManifestCache next, int maxEntries) {
        this.next = requireNonNull(next, "next is null");
        if (maxEntries < 1) {
            throw new IllegalArgumentException("Cannot create manifest cache: maxEntries must be positive");
        }
        this.entries = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, ManifestAggregate> eldest) {
                return size() > maxEntries;
            }
        };
    }

    @Override
    public Map<String, ManifestAggregate> find(Collection<String> manifestPaths, FileSizeTerms terms) {
        Map<String, ManifestAggregate> found = new HashMap<>();
        List<String> missing;
        synchronized (entries) {
            for (String path : manifestPaths) {
                ManifestAggregate aggregate = entries.get(key(path, terms));
                if (aggregate != null) {
                    found.put(path, aggregate);
                }
            }
        }
        missing = manifestPaths.stream().filter(path -> !found.containsKey(path)).toList();
        if (!missing.isEmpty()) {
            Map<String, ManifestAggregate> fromNext = next.find(missing, terms);
            remember(fromNext.values(), terms);
            found.putAll(fromNext);
        }
        return found;
    }

    @Override
    public void store(Collection<ManifestAggregate> aggregates, FileSizeTerms terms) {
        next.store(aggregates, terms);
        remember(aggregates, terms);
    }

    private void remember(Collection<ManifestAggregate> aggregates, FileSizeTerms terms) {
        synchronized (entries) {
            aggregates.forEach(aggregate -> entries.put(key(aggregate.manifestPath(), terms), aggregate));
        }
    }

    static String key(String path, FileSizeTerms terms) {
        return terms.targetFileSizeBytes() + "/" + terms.smallFileThresholdBytes() + "/"
                + terms.oversizedFileThresholdBytes() + "|" + path;
    }
}
