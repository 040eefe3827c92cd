package dev.cryo.iceberg.commit;

import org.apache.iceberg.exceptions.CleanableFailure;
import org.apache.iceberg.exceptions.CommitStateUnknownException;

import static java.util.Objects.requireNonNull;

/**
 * What a failed Iceberg commit leaves behind, by Iceberg's own rule (its {@code SnapshotProducer}
 * under strict cleanup): only a failure that Iceberg marks {@link CleanableFailure} (a
 * {@code CommitFailedException} once its retries are spent, a {@code ValidationException}, a
 * refusal the catalog answered with) proves that nothing was committed. Every other failure (a
 * {@link CommitStateUnknownException}, a JDBC catalog's lost connection after its UPDATE, an
 * interrupt, a timeout) may have committed: every file written for the commit must stay, and the
 * next look at the table's snapshot history decides.
 *
 * <p>A failure before the commit was attempted is {@link #FAILED_CLEANLY} by definition; callers
 * keep that case apart from the commit call itself.
 */
public enum CommitOutcome {

    /** Nothing was committed: the files written for the commit may be deleted. */
    FAILED_CLEANLY,

    /** The commit may have landed: keep every file; reconcile through the snapshot history. */
    UNKNOWN;

    /** The outcome of a commit call that threw {@code failure}. */
    public static CommitOutcome of(Throwable failure) {
        requireNonNull(failure, "failure is null");
        return failure instanceof CleanableFailure && !(failure instanceof CommitStateUnknownException)
                ? FAILED_CLEANLY : UNKNOWN;
    }

    /** Whether the files written for the commit may be deleted. */
    public boolean mayCleanUp() {
        return this == FAILED_CLEANLY;
    }
}
