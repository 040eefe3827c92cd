package dev.cryo.audit.domain;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The outcome of recomputing the chain.
 *
 * @param intact true when every link holds
 * @param rowsChecked rows whose hash was recomputed
 * @param rowsArchived rows stepped over because their month is archived
 * @param lastId the last row checked
 * @param lastHash its hash
 * @param firstBreak the first link that does not hold (optional)
 * @param breakCount how many links do not hold
 * @param brokenRowIds the rows that do not hold, up to the reporting limit
 */
public record VerifyReport(boolean intact, long rowsChecked, long rowsArchived, long lastId, String lastHash,
                           ChainBreak firstBreak, long breakCount, List<Long> brokenRowIds) {
    public VerifyReport {
        requireNonNull(lastHash, "lastHash is null");
        brokenRowIds = List.copyOf(brokenRowIds);
    }
}
