package dev.cryo.platform.deadletter;

import dev.cryo.contracts.Topics;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A re-drive goes only where the service's Kafka principal may write: never an admitted job or a result. */
class RedriveTargetsTest {

    @Test
    void anExecutorDoesNotReDriveAnAdmittedJob() {
        assertThat(DeadLetters.forbiddenTarget("executor", Topics.JOBS_ADMITTED)).hasValueSatisfying(reason ->
                assertThat(reason).startsWith("cryo-executor may not write it").contains("planned again"));
    }

    @Test
    void aGovernorDoesNotReDriveAResult() {
        assertThat(DeadLetters.forbiddenTarget("governor", Topics.JOBS_RESULTS)).isPresent();
    }

    @Test
    void aScorerReDrivesTheScanItCouldNotGrade() {
        assertThat(DeadLetters.forbiddenTarget("scorer", Topics.TABLE_SCANNED)).isEmpty();
    }

    @Test
    void aServiceWithoutACryoPrincipalIsLeftToTheBroker() {
        assertThat(DeadLetters.forbiddenTarget("platformtest", "cryo.test.platform-in.v1")).isEmpty();
    }
}
