package dev.cryo.executor.iceberg;

import org.apache.datasketches.theta.CompactSketch;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The column sketches of data files this engine wrote and read back, kept for the job's
 * compute_statistics step so that it does not read those rows a second time. A group is the files
 * of one committed rewrite; the step uses a group only when every one of its files is live with no
 * delete file in the snapshot it describes and the table schema is the one sketched (files are
 * immutable, so such a file's rows are exactly those read back). At most {@link #MAX_GROUPS}
 * groups, the oldest dropped first: a miss only means reading the rows again.
 */
final class SketchCache {

    static final int MAX_GROUPS = 64;

    /** The sketches of the rows of {@code files}, by field id, for schema {@code schemaId} of table {@code table}. */
    record Group(String table, int schemaId, Set<String> files, Map<Integer, CompactSketch> sketches) {
        Group {
            requireNonNull(table, "table is null");
            files = Set.copyOf(files);
            sketches = Map.copyOf(sketches);
        }
    }

    private final Map<Long, Group> groups = new LinkedHashMap<>();
    private long next;

    synchronized void put(Group group) {
        groups.put(next++, group);
        Iterator<Long> oldest = groups.keySet().iterator();
        while (groups.size() > MAX_GROUPS) {
            oldest.next();
            oldest.remove();
        }
    }

    /** The groups of a table, oldest first. */
    synchronized List<Group> of(String table) {
        List<Group> found = new ArrayList<>();
        groups.values().stream().filter(group -> group.table().equals(table)).forEach(found::add);
        return found;
    }
}
