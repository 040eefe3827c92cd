package dev.cryo.governor.domain;

import java.time.Duration;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A job holds its table's lock on a lease that each sign of life from its executor renews. A
 * lease that runs out means the executor died: the same job is admitted again (the executor
 * resumes from its own records) until it has had its attempts, and then the table is released
 * so it is never locked forever.
 */
public final class Leases {

    /** What happens to a job whose lease ran out. */
    public sealed interface AfterExpiry {
    }

    /** The job is admitted again, as attempt {@code attempt}, with a new lease. */
    public record Readmit(int attempt, Instant leaseExpiresAt) implements AfterExpiry {
    }

    /** The job has had its attempts: the lock and slot are released, the cooldown starts. */
    public record GiveUp(String message) implements AfterExpiry {
    }

    private final Duration lease;
    private final int maxAttempts;

    /**
     * @param lease how long a lease lasts after admission or the last sign of life
     * @param maxAttempts how many times a job is admitted before its table is released
     */
    public Leases(Duration lease, int maxAttempts) {
        requireNonNull(lease, "lease is null");
        if (lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("lease must be positive: " + lease);
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
        }
        this.lease = lease;
        this.maxAttempts = maxAttempts;
    }

    /** The end of a lease granted or renewed at {@code now}. */
    public Instant expiry(Instant now) {
        return now.plus(lease);
    }

    /** A lease ends at its expiry instant: at that instant the lock is no longer held. */
    public static boolean isExpired(TableLock lock, Instant now) {
        return !now.isBefore(lock.leaseExpiresAt());
    }

    /** What to do with a job, now in attempt {@code attempt}, whose lease ran out. */
    public AfterExpiry afterExpiry(TableLock lock, int attempt, Instant now) {
        if (!isExpired(lock, now)) {
            throw new IllegalArgumentException("the lease of job " + lock.jobId() + " runs until "
                    + lock.leaseExpiresAt() + ", after " + now);
        }
        if (attempt >= maxAttempts) {
            return new GiveUp("job " + lock.jobId() + " on " + lock.table() + " lost its lease at "
                    + lock.leaseExpiresAt() + " in attempt " + attempt + " of " + maxAttempts
                    + "; the table is released (raise cryo.governor.max-attempts to retry more)");
        }
        return new Readmit(attempt + 1, expiry(now));
    }
}
