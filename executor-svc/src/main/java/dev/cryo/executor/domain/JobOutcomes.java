package dev.cryo.executor.domain;

import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.OperationStatus;

import java.util.Collection;

/** How a job ended, from how its steps ended. */
public final class JobOutcomes {

    /**
     * SUCCEEDED when no step failed, FAILED when no step succeeded and one failed, otherwise
     * PARTIALLY_SUCCEEDED (chunks that committed stay committed). A step skipped because an
     * earlier attempt committed it counts as succeeded.
     */
    public static JobOutcome outcome(Collection<OperationStatus> statuses) {
        long failed = statuses.stream().filter(status -> status == OperationStatus.FAILED).count();
        if (failed == 0) {
            return JobOutcome.SUCCEEDED;
        }
        long succeeded = statuses.size() - failed;
        return succeeded == 0 ? JobOutcome.FAILED : JobOutcome.PARTIALLY_SUCCEEDED;
    }

    private JobOutcomes() {
    }
}
