package dev.cryo.governor.domain;

import dev.cryo.contracts.TableId;
import dev.cryo.governor.domain.StalePlans.LastCommit;
import dev.cryo.governor.domain.StalePlans.PlanBasis;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class StalePlansTest {

    private static final TableId TABLE = TableId.parse("lake.web.clicks");
    private static final Instant COMMITTED = Instant.parse("2026-11-30T10:00:00Z");
    private static final LastCommit COMMIT = new LastCommit("job-1", 7L, COMMITTED);

    @Test
    void aPlanWhoseScanBeganBeforeTheLastCommitIsStaleAndSaysWhy() {
        PlanBasis plan = new PlanBasis("plan-2", TABLE, 6L, COMMITTED.minusSeconds(3));

        assertThat(StalePlans.staleAfter(plan, COMMIT)).contains("plan plan-2 of lake.web.clicks was made from a scan"
                + " that began at 2026-11-30T09:59:57Z, before job job-1 committed snapshot 7 at 2026-11-30T10:00:00Z;"
                + " the scan after that commit plans what is still needed");
    }

    @Test
    void aPlanWhoseScanBeganAtOrAfterTheLastCommitIsKept() {
        assertThat(StalePlans.staleAfter(new PlanBasis("p", TABLE, 8L, COMMITTED), COMMIT)).isEmpty();
        assertThat(StalePlans.staleAfter(new PlanBasis("p", TABLE, 8L, COMMITTED.plusMillis(1)), COMMIT)).isEmpty();
    }

    @Test
    void aPlanWhoseScanSawTheCommittedSnapshotIsKeptWhateverTheClocksSay() {
        assertThat(StalePlans.staleAfter(new PlanBasis("p", TABLE, 7L, COMMITTED.minusSeconds(1)), COMMIT))
                .isEmpty();
    }

    @Test
    void aPlanWithoutAScanTimeIsKept() {
        assertThat(StalePlans.staleAfter(new PlanBasis("p", TABLE, 6L, null), COMMIT)).isEmpty();
        assertThat(StalePlans.staleAfter(new PlanBasis("p", TABLE, null, null), COMMIT)).isEmpty();
    }
}
