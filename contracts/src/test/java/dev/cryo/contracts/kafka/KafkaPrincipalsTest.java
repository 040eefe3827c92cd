package dev.cryo.contracts.kafka;

import dev.cryo.contracts.Topics;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Who may write what, as the ACLs of every broker Cryo runs on are made from it. */
class KafkaPrincipalsTest {

    private final Map<String, KafkaPrincipals.Principal> all = KafkaPrincipals.all();

    @Test
    void onlyTheGovernorWritesAdmittedJobs() {
        assertThat(writersOf(Topics.JOBS_ADMITTED)).containsExactly("cryo-governor");
    }

    @Test
    void onlyExecutorsAndThePlannersScoreChecksWriteResults() {
        assertThat(writersOf(Topics.JOBS_RESULTS)).containsExactlyInAnyOrder("cryo-executor", "cryo-planner");
    }

    @Test
    void theReporterWritesTableChangesAndReadsNothing() {
        KafkaPrincipals.Principal reporter = all.get(KafkaPrincipals.REPORTER);

        assertThat(reporter.writes()).containsExactly(Topics.TABLE_CHANGED);
        assertThat(reporter.reads()).isEmpty();
    }

    @Test
    void everyServiceWritesItsOwnDeadLettersAndNoOneElses() {
        for (String service : Topics.CONSUMING_SERVICES) {
            assertThat(writersOf(Topics.deadLetter(service))).as(service).containsExactly(KafkaPrincipals.of(service));
        }
    }

    @Test
    void aServiceMayReDriveWhatItReadsExceptCommandsAndResults() {
        KafkaPrincipals.Principal scorer = KafkaPrincipals.forService("scorer");
        KafkaPrincipals.Principal executor = KafkaPrincipals.forService("executor");

        assertThat(scorer.mayWrite(Topics.TABLE_SCANNED)).isTrue();
        assertThat(executor.mayRead(Topics.JOBS_ADMITTED)).isTrue();
        assertThat(executor.mayWrite(Topics.JOBS_ADMITTED)).isFalse();
        assertThat(executor.mayWrite(Topics.PLANS)).isFalse();
    }

    @Test
    void everyTopicHasAWriterAndEveryTopicButTheReplayAReader() {
        for (Topics.Spec topic : Topics.all()) {
            assertThat(writersOf(topic.name())).as("writers of %s", topic.name()).isNotEmpty();
            if (!topic.name().equals(Topics.REPLAY)) {
                assertThat(all.values().stream().filter(p -> p.mayRead(topic.name())))
                        .as("readers of %s", topic.name()).isNotEmpty();
            }
        }
    }

    @Test
    void groupsAreTheServicesOwn() {
        assertThat(KafkaPrincipals.forService("executor").groupPrefix()).isEqualTo("cryo-executor");
        assertThatThrownBy(() -> KafkaPrincipals.forService("console"))
                .hasMessageContaining("No Kafka principal for service 'console'");
    }

    @Test
    void theAclsAreExactlyTheReadsWritesAndGroupOfEachPrincipal() {
        KafkaPrincipals.Principal governor = KafkaPrincipals.forService("governor");

        assertThat(PrincipalAdmin.bindings(governor)).hasSize(governor.reads().size() + governor.writes().size() + 1)
                .allSatisfy(binding -> assertThat(binding.entry().principal()).isEqualTo("User:cryo-governor"));
    }

    @Test
    void clientSecurityComesFromTheEnvironmentAndRefusesSaslWithoutAPassword() {
        assertThat(KafkaClientSecurity.from(Map.<String, String>of()::get).properties()).containsEntry("security.protocol", "PLAINTEXT")
                .doesNotContainKey("sasl.jaas.config");
        assertThat(KafkaClientSecurity.from(Map.of("CRYO_KAFKA_USER", "cryo-admin", "CRYO_KAFKA_PASSWORD", "a\"b")::get)
                .properties())
                .containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"cryo-admin\" password=\"a\\\"b\";");
        assertThatThrownBy(() -> KafkaClientSecurity.from(Map.of("CRYO_KAFKA_USER", "cryo-admin")::get))
                .hasMessageContaining("set CRYO_KAFKA_USER and CRYO_KAFKA_PASSWORD");
    }

    private Set<String> writersOf(String topic) {
        return all.values().stream().filter(principal -> principal.mayWrite(topic))
                .map(KafkaPrincipals.Principal::name).collect(Collectors.toSet());
    }
}
