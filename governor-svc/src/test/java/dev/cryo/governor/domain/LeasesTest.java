package dev.cryo.governor.domain;

import dev.cryo.contracts.TableId;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LeasesTest {

    private static final Instant T = Instant.parse("2026-06-15T12:00:00Z");
    private static final TableLock LOCK = new TableLock(TableId.parse("lake.sales.orders"), "job-1", "plan-1", T);
    private final Leases leases = new Leases(Duration.ofMinutes(2), 3);

    @Test
    void aLeaseLastsItsDurationFromTheLastSignOfLife() {
        assertThat(leases.expiry(T)).isEqualTo(T.plus(Duration.ofMinutes(2)));
    }

    @Test
    void aLeaseEndsAtItsExpiryInstant() {
        assertThat(Leases.isExpired(LOCK, T.minusMillis(1))).isFalse();
        assertThat(Leases.isExpired(LOCK, T)).isTrue();
    }

    @Test
    void anExpiredJobIsAdmittedAgainWithTheNextAttemptAndANewLease() {
        Instant now = T.plusSeconds(5);

        assertThat(leases.afterExpiry(LOCK, 1, now)).isEqualTo(new Leases.Readmit(2, now.plus(Duration.ofMinutes(2))));
        assertThat(leases.afterExpiry(LOCK, 2, now)).isEqualTo(new Leases.Readmit(3, now.plus(Duration.ofMinutes(2))));
    }

    @Test
    void afterItsLastAttemptTheTableIsReleased() {
        assertThat(leases.afterExpiry(LOCK, 3, T)).isEqualTo(new Leases.GiveUp("job job-1 on lake.sales.orders lost "
                + "its lease at 2026-06-15T12:00:00Z in attempt 3 of 3; the table is released "
                + "(raise cryo.governor.max-attempts to retry more)"));
    }

    @Test
    void aLiveLeaseIsNotTakenOver() {
        assertThatThrownBy(() -> leases.afterExpiry(LOCK, 1, T.minusSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the lease of job job-1 runs until 2026-06-15T12:00:00Z, after 2026-06-15T11:59:59Z");
    }
}
