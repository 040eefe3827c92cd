package dev.cryo.audit.domain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Recomputes a hash chain from its rows, in id order, and reports every link that does not hold.
 * Each row is judged on its own: after a break, the next row is checked against the hash the broken
 * row stores, so one changed row is reported as exactly that row.
 *
 * <p>A link holds when its id follows the previous one, its {@code previousHash} is the previous
 * row's hash, and its stored hash equals the hash recomputed from its content now. Archived months
 * are stepped over with the links recorded when they were archived.
 */
public final class ChainVerifier {

    private final Deque<ArchivedRange> archived;
    private final int maxReportedBreaks;
    private final List<Long> brokenRowIds = new ArrayList<>();

    private long nextId = 1;
    private String expectedPrevious = Hashes.GENESIS;
    private long rowsChecked;
    private long rowsArchived;
    private long breakCount;
    private long lastReportedId = -1;
    private ChainBreak firstBreak;

    public ChainVerifier(List<ArchivedRange> archived, int maxReportedBreaks) {
        requireNonNull(archived, "archived is null");
        if (maxReportedBreaks < 1) {
            throw new IllegalArgumentException("Cannot verify: maxReportedBreaks must be at least 1, got " + maxReportedBreaks);
        }
        this.archived = new ArrayDeque<>(archived.stream().sorted(Comparator.comparingLong(ArchivedRange::firstId)).toList());
        this.maxReportedBreaks = maxReportedBreaks;
    }

    /** Checks the next row; rows must come in id order. */
    public void check(ChainLink link) {
        requireNonNull(link, "link is null");
        stepOverArchived();
        if (link.id() < nextId) {
            broken(new ChainBreak(link.id(), "row " + link.id() + " comes again or out of order after row " + (nextId - 1),
                    null, null));
        } else if (link.id() > nextId) {
            // The hash of a missing row is unknown: the link's previous hash is taken as it is.
            broken(new ChainBreak(nextId, "rows " + nextId + ".." + (link.id() - 1) + " are missing", null, null));
        } else if (!link.previousHash().equals(expectedPrevious)) {
            broken(new ChainBreak(link.id(), "row " + link.id() + " does not point to the hash of row " + (link.id() - 1),
                    expectedPrevious, link.previousHash()));
        }
        if (!link.recomputedHash().equals(link.rowHash())) {
            broken(new ChainBreak(link.id(), "row " + link.id() + " does not match its hash: it changed after it was written",
                    link.recomputedHash(), link.rowHash()));
        }
        rowsChecked++;
        expectedPrevious = link.rowHash();
        nextId = Math.max(nextId, link.id() + 1);
    }

    /** Compares the end of the rows with the chain head and reports. */
    public VerifyReport finish(ChainHead head) {
        requireNonNull(head, "head is null");
        stepOverArchived();
        long lastId = nextId - 1;
        if (head.lastId() > lastId) {
            broken(new ChainBreak(lastId + 1, "rows " + (lastId + 1) + ".." + head.lastId()
                    + " are missing: the chain head ends at " + head.lastId(), head.lastHash(), expectedPrevious));
        } else if (head.lastId() < lastId) {
            broken(new ChainBreak(head.lastId() + 1, "rows after " + head.lastId() + " were not written through the chain",
                    head.lastHash(), expectedPrevious));
        } else if (!head.lastHash().equals(expectedPrevious)) {
            broken(new ChainBreak(lastId, "the chain head's hash is not the hash of row " + lastId, head.lastHash(),
                    expectedPrevious));
        }
        return new VerifyReport(breakCount == 0, rowsChecked, rowsArchived, lastId, expectedPrevious, firstBreak,
                breakCount, brokenRowIds);
    }

    private void stepOverArchived() {
        while (!archived.isEmpty() && archived.peekFirst().firstId() <= nextId) {
            ArchivedRange range = archived.pollFirst();
            if (range.firstId() < nextId) {
                broken(new ChainBreak(range.firstId(), "archived range " + range.name() + " overlaps rows still stored",
                        null, null));
                continue;
            }
            if (!range.firstPreviousHash().equals(expectedPrevious)) {
                broken(new ChainBreak(range.firstId(), "archived range " + range.name() + " does not continue the chain",
                        expectedPrevious, range.firstPreviousHash()));
            }
            rowsArchived += range.rowCount();
            expectedPrevious = range.lastHash();
            nextId = range.lastId() + 1;
        }
    }

    private void broken(ChainBreak chainBreak) {
        breakCount++;
        if (firstBreak == null) {
            firstBreak = chainBreak;
        }
        if (chainBreak.id() != lastReportedId && brokenRowIds.size() < maxReportedBreaks) {
            brokenRowIds.add(chainBreak.id());
            lastReportedId = chainBreak.id();
        }
    }
}
