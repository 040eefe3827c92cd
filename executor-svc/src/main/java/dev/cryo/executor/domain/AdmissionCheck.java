package dev.cryo.executor.domain;

import dev.cryo.contracts.event.JobAdmitted;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Whether an executor may start an admission it took up. The governor holds the table for the
 * job only until the admission's lease ends; after that it admits the job again (or releases the
 * table), so an executor that started a stale admission could run beside a newer one. The check
 * refuses an admission whose lease has ended, one older than the validity the executor accepts
 * (a replayed or forged record), and one stamped further in the future than the clocks may
 * differ.
 */
public final class AdmissionCheck {

    /** Why an admission is not started: a stable code and a sentence for people. */
    public record Refusal(String reason, String message) {
        public Refusal {
            requireNonNull(reason, "reason is null");
            requireNonNull(message, "message is null");
        }
    }

    public static final String LEASE_EXPIRED = "lease-expired";
    public static final String ADMISSION_TOO_OLD = "admission-too-old";
    public static final String ADMITTED_IN_FUTURE = "admitted-in-future";

    private final Duration validity;
    private final Duration skewTolerance;

    public AdmissionCheck(Duration validity, Duration skewTolerance) {
        this.validity = positive(validity, "validity");
        this.skewTolerance = requireNonNull(skewTolerance, "skewTolerance is null");
        if (skewTolerance.isNegative()) {
            throw new IllegalArgumentException("skewTolerance is negative: " + skewTolerance);
        }
    }

    /** Empty when the admission may start at {@code now}. */
    public Optional<Refusal> check(JobAdmitted job, Instant now) {
        String which = "job " + job.jobId() + " (admitted at " + job.admittedAt() + " by " + job.governorId() + ")";
        if (job.admittedAt().isAfter(now.plus(skewTolerance))) {
            return Optional.of(new Refusal(ADMITTED_IN_FUTURE, which + " was not started: its admission is stamped "
                    + Duration.between(now, job.admittedAt()).toSeconds() + " s ahead of this executor's clock, more than"
                    + " cryo.executor.clock-skew-tolerance (" + skewTolerance + "); check the clocks of governor and"
                    + " executor"));
        }
        if (!now.isBefore(job.leaseExpiresAt())) {
            return Optional.of(new Refusal(LEASE_EXPIRED, which + " was not started: its lease ended at "
                    + job.leaseExpiresAt() + ", " + Duration.between(job.leaseExpiresAt(), now).toSeconds()
                    + " s before this executor took it up; the governor admits it again or releases the table"));
        }
        Duration age = Duration.between(job.admittedAt(), now);
        if (age.compareTo(validity) > 0) {
            return Optional.of(new Refusal(ADMISSION_TOO_OLD, which + " was not started: the admission is "
                    + age.toSeconds() + " s old, older than cryo.executor.admission-validity (" + validity
                    + ") although its lease runs until " + job.leaseExpiresAt() + "; a replayed or forged record?"));
        }
        return Optional.empty();
    }

    private static Duration positive(Duration duration, String name) {
        requireNonNull(duration, name + " is null");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + duration);
        }
        return duration;
    }
}
