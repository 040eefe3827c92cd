package dev.cryo.deploy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The validation fails on broken manifests: each case under src/test/resources/broken/ is the
 * production overlay with one mistake, rendered by kubectl kustomize like the real overlays.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BrokenManifestsTest {

    private ValidationContext context;
    private KubernetesRules rules;

    @BeforeAll
    void context() {
        context = ValidationContext.ofRepository();
        rules = new KubernetesRules(context);
    }

    private List<String> problemsOf(String brokenCase) {
        Path kustomization = context.repository().module("deploy-tests").resolve("src/test/resources/broken").resolve(brokenCase);
        return rules.problems(Manifest.parseAll(Kustomize.render(kustomization)));
    }

    @Test
    void aMisspeltConfigurationKeyFails() {
        assertThat(problemsOf("unknown-config-key")).containsExactly(
                "governor-svc: CRYO_GOVERNOR_SLOTS_NATVE is not a configuration key of governor-svc"
                        + " (did you mean CRYO_GOVERNOR_SLOTS_NATIVE?) (set by Deployment/governor-svc)");
    }

    @Test
    void aCatalogPropertyInTheAmbiguousUpperCaseFormFailsForEveryServiceThatReadsIt() {
        assertThat(problemsOf("ambiguous-catalog-key"))
                .hasSize(2)
                .allSatisfy(problem -> assertThat(problem)
                        .contains("CRYO_CATALOGS_LAKEHOUSE_IO_IMPL falls under cryo.catalogs.*.**")
                        .contains("name the variable after the property itself"))
                .anySatisfy(problem -> assertThat(problem).startsWith("scanner-svc: "))
                .anySatisfy(problem -> assertThat(problem).startsWith("executor-svc: "));
    }

    @Test
    void aKeyOfAnotherServiceFails() {
        assertThat(problemsOf("key-of-another-service")).containsExactly(
                "console: KAFKA_BOOTSTRAP_SERVERS is not a configuration key of console (set by Deployment/console)");
    }

    @Test
    void aServiceLoggingInWithTheDatabaseOwnersSecretFails() {
        assertThat(problemsOf("audit-as-database-owner")).containsExactlyInAnyOrder(
                "audit-svc: CRYO_DB_USER must come from the Secret cryo-db-audit, not cryo-db",
                "audit-svc: CRYO_DB_USER comes from cryo-db, the database owner's Secret");
    }

    @Test
    void aServiceLoggingInToKafkaWithAnotherServicesKafkaUserFails() {
        assertThat(problemsOf("executor-with-governors-kafka-user")).containsExactlyInAnyOrder(
                "executor-svc: CRYO_KAFKA_PASSWORD must come from the Secret cryo-executor, key password,"
                        + " not cryo-governor, key password",
                "executor-svc: CRYO_KAFKA_PASSWORD comes from cryo-governor, the Secret of another service's KafkaUser");
    }

    @Test
    void aServiceWithoutKafkaCredentialsFails() {
        assertThat(problemsOf("scorer-without-kafka-credentials")).containsExactly(
                "scorer-svc: sets no CRYO_KAFKA_PASSWORD (it must come from the Secret cryo-scorer, key password)");
    }

    @Test
    void aKafkaListenerWithoutAuthenticationOrAClusterWithoutAclsFails() {
        assertThat(problemsOf("unauthenticated-kafka")).containsExactlyInAnyOrder(
                "Kafka/cryo: the listener scram (port 9092) does not require authentication: scram-sha-512",
                "Kafka/cryo: ACLs are not enforced (authorizer ; it must be "
                        + "org.apache.kafka.metadata.authorizer.StandardAuthorizer, Strimzi's authorization type simple)",
                "Kafka/cryo: the super users [] do not include cryo-admin");
    }

    @Test
    void kafkaUsersThatAreNotExactlyThePrincipalsOfTheContractsFail() {
        assertThat(problemsOf("executor-writes-admitted-jobs")).containsExactlyInAnyOrder(
                "KafkaUser/cryo-executor: its ACLs are not those of KafkaPrincipals.all(); not allowed: "
                        + "[Acl[resourceType=topic, name=cryo.jobs.admitted.v1, patternType=literal, operation=Write]]",
                "principal cryo-audit is missing: no KafkaUser of the cluster cryo declares it");
    }

    @Test
    void aMissingTopicFails() {
        assertThat(problemsOf("missing-topic")).containsExactly("topic cryo.plans.v1 is missing: no KafkaTopic declares it");
    }

    @Test
    void aTopicWithOtherPartitionsThanTheContractsFails() {
        assertThat(problemsOf("wrong-partitions")).containsExactly(
                "KafkaTopic/cryo.jobs.admitted.v1: 6 partitions, Topics.all() says 12");
    }

    @Test
    void aTopicThatDoesNotExistFails() {
        assertThat(problemsOf("misspelt-trigger-topic")).containsExactly(
                "ScaledObject/executor-svc names topic cryo.jobs.admited.v1, which is not in contracts' Topics.all()",
                "ScaledObject/executor-svc: its kafka trigger must read cryo.jobs.admitted.v1");
    }

    @Test
    void moreExecutorsThanSlotsAndPartitionsCanUseFail() {
        assertThat(problemsOf("too-many-executors")).containsExactly(
                "ScaledObject/executor-svc: maximum 30 executors, but min(12 partitions of cryo.jobs.admitted.v1,"
                        + " ceil(20 governor slots / 2 jobs per executor)) = 10 can work");
    }

    @Test
    void aFieldThatTheKindDoesNotHaveFails() {
        assertThat(problemsOf("misspelt-field")).containsExactlyInAnyOrder(
                "Deployment/scorer-svc: unknown field(s) [readinesProbe] at spec.template.spec.containers[0]",
                "scorer-svc: readinessProbe must be an httpGet on /q/health, not ''",
                "ScaledObject/executor-svc: ScaledObject: unknown field spec.maxReplicas");
    }

    @Test
    void aServiceReachingAnEngineItDoesNotUseFails() {
        assertThat(problemsOf("scorer-reaches-trino")).singleElement().asString()
                .startsWith("scorer-svc: NetworkPolicy/scorer-svc lets it reach trino ")
                .endsWith("; it may reach only [dns, kafka, postgresql]");
    }
}
