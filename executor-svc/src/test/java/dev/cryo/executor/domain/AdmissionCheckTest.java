package dev.cryo.executor.domain;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PlannedOperation;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdmissionCheckTest {

    private static final Instant NOW = Instant.parse("2026-06-01T10:00:00Z");
    private final AdmissionCheck check = new AdmissionCheck(Duration.ofMinutes(10), Duration.ofSeconds(30));

    @Test
    void aFreshAdmissionWithinItsLeaseMayStart() {
        assertThat(check.check(admitted(NOW.minusSeconds(5), NOW.plusSeconds(115)), NOW)).isEmpty();
        assertThat(check.check(admitted(NOW.plusSeconds(30), NOW.plusSeconds(150)), NOW)).as("skew within tolerance").isEmpty();
    }

    @Test
    void aLeaseEndsAtItsExpiryInstant() {
        assertThat(check.check(admitted(NOW.minusSeconds(120), NOW.plusMillis(1)), NOW)).isEmpty();
        AdmissionCheck.Refusal refusal = check.check(admitted(NOW.minusSeconds(120), NOW), NOW).orElseThrow();
        assertThat(refusal.reason()).isEqualTo(AdmissionCheck.LEASE_EXPIRED);
        assertThat(check.check(admitted(NOW.minusSeconds(200), NOW.minusSeconds(80)), NOW).orElseThrow().message())
                .isEqualTo("job job-1 (admitted at 2026-06-01T09:56:40Z by governor-1) was not started: its lease ended at"
                        + " 2026-06-01T09:58:40Z, 80 s before this executor took it up; the governor admits it again or"
                        + " releases the table");
    }

    @Test
    void anAdmissionOlderThanTheValidityIsRefusedWhateverItsLease() {
        AdmissionCheck.Refusal refusal = check.check(admitted(NOW.minus(Duration.ofMinutes(11)), NOW.plusSeconds(3600)), NOW)
                .orElseThrow();
        assertThat(refusal.reason()).isEqualTo(AdmissionCheck.ADMISSION_TOO_OLD);
        assertThat(refusal.message()).contains("660 s old, older than cryo.executor.admission-validity (PT10M)");
        assertThat(check.check(admitted(NOW.minus(Duration.ofMinutes(10)), NOW.plusSeconds(60)), NOW)).isEmpty();
    }

    @Test
    void anAdmissionStampedInTheFutureBeyondTheSkewIsRefused() {
        AdmissionCheck.Refusal refusal = check.check(admitted(NOW.plusSeconds(31), NOW.plusSeconds(151)), NOW).orElseThrow();
        assertThat(refusal.reason()).isEqualTo(AdmissionCheck.ADMITTED_IN_FUTURE);
        assertThat(refusal.message()).contains("31 s ahead of this executor's clock", "cryo.executor.clock-skew-tolerance");
    }

    @Test
    void settingsMustBeSane() {
        assertThatThrownBy(() -> new AdmissionCheck(Duration.ZERO, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("validity must be positive");
        assertThatThrownBy(() -> new AdmissionCheck(Duration.ofMinutes(1), Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("skewTolerance is negative");
    }

    private static JobAdmitted admitted(Instant admittedAt, Instant leaseExpiresAt) {
        TableId table = TableId.of("lake", "sales", "orders");
        MaintenancePlanned plan = new MaintenancePlanned("plan-1", table, "scan-1", null, null, admittedAt, 40, Grade.D, 90,
                List.of(new PlannedOperation(Operation.EXPIRE_SNAPSHOTS, List.of(Check.SNAPSHOT_COUNT), List.of(),
                        OperationParameters.NONE, Estimate.ZERO)), Estimate.ZERO, null, null);
        return new JobAdmitted("job-1", "plan-1", table, Engine.NATIVE, 0, admittedAt, leaseExpiresAt, "governor-1", plan);
    }
}
