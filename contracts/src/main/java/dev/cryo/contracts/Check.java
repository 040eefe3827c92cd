package dev.cryo.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;

/**
 * The 14 health checks of SCORING.md, each with the operation that wins its points back.
 * Limits and their size scaling belong to the scorer; this enum only names the checks so
 * that every service and subscriber speaks the same ids.
 */
public enum Check {
    SMALL_FILES("small-files", Operation.OPTIMIZE),
    FILE_COUNT("file-count", Operation.OPTIMIZE),
    OVERSIZED_FILES("oversized-files", Operation.OPTIMIZE),
    PARTITION_SKEW("partition-skew", Operation.OPTIMIZE),
    DELETE_RATIO("delete-ratio", Operation.OPTIMIZE),
    EQUALITY_DELETES("equality-deletes", Operation.CONVERT_DELETES),
    POSITION_DELETES("position-deletes", Operation.REWRITE_POSITION_DELETES),
    SNAPSHOT_COUNT("snapshot-count", Operation.EXPIRE_SNAPSHOTS),
    SNAPSHOT_AGE("snapshot-age", Operation.EXPIRE_SNAPSHOTS),
    MANIFEST_COUNT("manifest-count", Operation.OPTIMIZE_MANIFESTS),
    MANIFEST_CLUSTERING("manifest-clustering", Operation.OPTIMIZE_MANIFESTS),
    MISSING_STATISTICS("missing-statistics", Operation.COMPUTE_STATISTICS),
    STALE_STATISTICS("stale-statistics", Operation.COMPUTE_STATISTICS),
    ORPHAN_FILES("orphan-files", Operation.REMOVE_ORPHAN_FILES);

    private final String id;
    private final Operation fixedBy;

    Check(String id, Operation fixedBy) {
        this.id = id;
        this.fixedBy = fixedBy;
    }

    @JsonValue
    public String id() {
        return id;
    }

    /** The operation that wins this check's points back. */
    public Operation fixedBy() {
        return fixedBy;
    }

    @JsonCreator
    public static Check fromId(String id) {
        return Arrays.stream(values())
                .filter(check -> check.id.equals(id))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Cannot parse check '" + id
                        + "': expected one of " + Arrays.stream(values()).map(Check::id).toList()));
    }

    @Override
    public String toString() {
        return id;
    }
}
