package dev.cryo.audit.domain;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChainVerifierTest {

    @Test
    void anIntactChainIsReportedWithItsCountAndLastHash() {
        List<ChainLink> chain = chain(5);

        VerifyReport report = verify(chain, List.of(), head(chain));

        assertThat(report.intact()).isTrue();
        assertThat(report.rowsChecked()).isEqualTo(5);
        assertThat(report.lastId()).isEqualTo(5);
        assertThat(report.lastHash()).isEqualTo(chain.get(4).rowHash());
        assertThat(report.firstBreak()).isNull();
        assertThat(report.brokenRowIds()).isEmpty();
    }

    @Test
    void anEmptyChainIsIntact() {
        VerifyReport report = verify(List.of(), List.of(), ChainHead.EMPTY);

        assertThat(report.intact()).isTrue();
        assertThat(report.rowsChecked()).isZero();
    }

    @Test
    void aRowChangedAfterItWasWrittenIsReportedAsExactlyThatRow() {
        List<ChainLink> chain = chain(6);
        ChainLink original = chain.get(2);
        chain.set(2, new ChainLink(3, original.previousHash(), original.rowHash(),
                Hashes.rowHash(original.previousHash(), "{\"payload\":\"changed\"}")));

        VerifyReport report = verify(chain, List.of(), head(chain));

        assertThat(report.intact()).isFalse();
        assertThat(report.breakCount()).isEqualTo(1);
        assertThat(report.brokenRowIds()).containsExactly(3L);
        assertThat(report.firstBreak().id()).isEqualTo(3);
        assertThat(report.firstBreak().problem()).isEqualTo("row 3 does not match its hash: it changed after it was written");
        assertThat(report.firstBreak().stored()).isEqualTo(original.rowHash());
        assertThat(report.firstBreak().expected()).isEqualTo(Hashes.rowHash(original.previousHash(), "{\"payload\":\"changed\"}"));
    }

    @Test
    void aRowWhoseHashWasRewrittenToMatchBreaksTheNextLink() {
        List<ChainLink> chain = chain(4);
        ChainLink original = chain.get(1);
        String forged = Hashes.rowHash(original.previousHash(), "{\"forged\":true}");
        chain.set(1, new ChainLink(2, original.previousHash(), forged, forged));

        VerifyReport report = verify(chain, List.of(), head(chain));

        assertThat(report.brokenRowIds()).containsExactly(3L);
        assertThat(report.firstBreak().problem()).isEqualTo("row 3 does not point to the hash of row 2");
    }

    @Test
    void missingRowsAreReportedFromTheFirstMissingId() {
        List<ChainLink> chain = chain(6);
        ChainHead head = head(chain);
        chain.remove(3);
        chain.remove(3);

        VerifyReport report = verify(chain, List.of(), head);

        assertThat(report.firstBreak().id()).isEqualTo(4);
        assertThat(report.firstBreak().problem()).isEqualTo("rows 4..5 are missing");
        assertThat(report.brokenRowIds()).containsExactly(4L);
    }

    @Test
    void rowsMissingAtTheEndAreFoundThroughTheChainHead() {
        List<ChainLink> chain = chain(5);
        ChainHead head = head(chain);

        VerifyReport report = verify(chain.subList(0, 3), List.of(), head);

        assertThat(report.firstBreak().id()).isEqualTo(4);
        assertThat(report.firstBreak().problem()).isEqualTo("rows 4..5 are missing: the chain head ends at 5");
    }

    @Test
    void anArchivedMonthIsSteppedOverWithItsRecordedLinks() {
        List<ChainLink> chain = chain(10);
        ArchivedRange archived = new ArchivedRange("audit_event_2026_01", 1, 4, Hashes.GENESIS, chain.get(3).rowHash());

        VerifyReport report = verify(chain.subList(4, 10), List.of(archived), head(chain));

        assertThat(report.intact()).isTrue();
        assertThat(report.rowsArchived()).isEqualTo(4);
        assertThat(report.rowsChecked()).isEqualTo(6);
    }

    @Test
    void anArchiveRecordThatDoesNotContinueTheChainIsABreak() {
        List<ChainLink> chain = chain(10);
        ArchivedRange archived = new ArchivedRange("audit_event_2026_02", 4, 6, "f".repeat(64), chain.get(5).rowHash());

        List<ChainLink> stored = new ArrayList<>(chain.subList(0, 3));
        stored.addAll(chain.subList(6, 10));

        VerifyReport report = verify(stored, List.of(archived), head(chain));

        assertThat(report.brokenRowIds()).containsExactly(4L);
        assertThat(report.firstBreak().problem()).isEqualTo("archived range audit_event_2026_02 does not continue the chain");
    }

    @Test
    void reportedRowsAreCappedButAllAreCounted() {
        List<ChainLink> chain = chain(10);
        for (int i = 0; i < 10; i++) {
            ChainLink link = chain.get(i);
            String changed = Hashes.rowHash(link.previousHash(), "changed " + i);
            chain.set(i, new ChainLink(link.id(), link.previousHash(), link.rowHash(), changed));
        }
        ChainVerifier verifier = new ChainVerifier(List.of(), 3);
        chain.forEach(verifier::check);

        VerifyReport report = verifier.finish(head(chain));

        assertThat(report.breakCount()).isEqualTo(10);
        assertThat(report.brokenRowIds()).containsExactly(1L, 2L, 3L);
    }

    @Test
    void aReportingLimitBelowOneIsRefused() {
        assertThatThrownBy(() -> new ChainVerifier(List.of(), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot verify: maxReportedBreaks must be at least 1, got 0");
    }

    private static VerifyReport verify(List<ChainLink> links, List<ArchivedRange> archived, ChainHead head) {
        ChainVerifier verifier = new ChainVerifier(archived, 100);
        links.forEach(verifier::check);
        return verifier.finish(head);
    }

    private static ChainHead head(List<ChainLink> chain) {
        ChainLink last = chain.get(chain.size() - 1);
        return new ChainHead(last.id(), last.rowHash());
    }

    private static List<ChainLink> chain(int rows) {
        List<ChainLink> chain = new ArrayList<>();
        String previous = Hashes.GENESIS;
        for (int id = 1; id <= rows; id++) {
            String content = "{\"id\":" + id + ",\"payload\":{\"n\":" + id + "}}";
            String hash = Hashes.rowHash(previous, content);
            chain.add(new ChainLink(id, previous, hash, Hashes.rowHash(previous, content)));
            previous = hash;
        }
        return chain;
    }
}
