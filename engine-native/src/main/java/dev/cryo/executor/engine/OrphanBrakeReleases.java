package dev.cryo.executor.engine;

import dev.cryo.contracts.TableId;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Operators' releases of the orphan share brake: one release lets one run of remove_orphan_files
 * on one table delete more than {@code cryo.executor.orphans.max-share} of what it listed.
 */
public interface OrphanBrakeReleases {

    /** No release is ever pending. */
    OrphanBrakeReleases NONE = (table, jobId) -> Optional.empty();

    /**
     * Takes the pending release of the table, if there is one: it is used up by this job and
     * lets no other run through.
     */
    Optional<Release> take(TableId table, String jobId);

    /**
     * An operator's release.
     *
     * @param operator who released the brake
     * @param releasedAt when
     * @param reason what the operator said (optional)
     */
    record Release(String operator, Instant releasedAt, String reason) {
        public Release {
            requireNonNull(operator, "operator is null");
            requireNonNull(releasedAt, "releasedAt is null");
        }

        @Override
        public String toString() {
            return "released by " + operator + " at " + releasedAt + (reason == null || reason.isBlank() ? "" : " (" + reason + ")");
        }
    }
}
