package dev.cryo.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** docker-compose.yml against the Compose Specification and the services' configuration keys. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ComposeFileTest {

    private ValidationContext context;
    private ComposeRules rules;
    private JsonNode compose;

    @BeforeAll
    void read() throws IOException {
        context = ValidationContext.ofRepository();
        rules = new ComposeRules(context);
        compose = ComposeRules.parse(Files.readString(context.repository().composeFile()));
    }

    @Test
    void theComposeFileFollowsEveryRule() {
        assertThat(rules.problems(compose)).isEmpty();
    }

    @Test
    void everyServiceOfTheArchitectureIsInTheComposeFileAndAnchorsAreResolved() {
        List<String> services = iterate(compose.path("services").fieldNames());

        assertThat(services).containsAll(context.architecture().services())
                .contains("kafka", "kafka-topics", "postgres", "iceberg-rest", "trino", "spark-connect");
        assertThat(compose.path("services").path("executor-svc").path("environment").path("cryo.catalogs.lakehouse.io-impl")
                .asText()).isEqualTo("org.apache.iceberg.aws.s3.S3FileIO");
        assertThat(compose.path("services").path("scorer-svc").path("environment").path("KAFKA_BOOTSTRAP_SERVERS")
                .asText()).isEqualTo("kafka:9092");
    }

    @Test
    void aVariableThatIsNoConfigurationKeyFails() {
        ObjectNode broken = ComposeRules.copy(compose);
        ((ObjectNode) broken.path("services").path("planner-svc").path("environment"))
                .put("CRYO_PLANNER_CHUNK_BUDGET", "1073741824");

        assertThat(rules.problems(broken)).containsExactly(
                "planner-svc: CRYO_PLANNER_CHUNK_BUDGET is not a configuration key of planner-svc"
                        + " (did you mean CRYO_PLANNER_CHUNK_BUDGET_BYTES?) (docker-compose.yml)");
    }

    @Test
    void aFileThatTheComposeSpecificationRejectsFails() {
        ObjectNode broken = ComposeRules.copy(compose);
        ((ObjectNode) broken.path("services").path("kafka")).put("restart_policy", "always");
        ((ObjectNode) broken.path("services").path("kafka-topics").path("depends_on").path("kafka"))
                .put("condition", "service_ready");

        assertThat(rules.problems(broken))
                .anySatisfy(problem -> assertThat(problem).startsWith("Compose Specification: ").contains("restart_policy"))
                .anySatisfy(problem -> assertThat(problem).startsWith("Compose Specification: ").contains("condition"))
                .allSatisfy(problem -> assertThat(problem).startsWith("Compose Specification: "));
    }

    @Test
    void aServiceWithoutHealthCheckOrLimitsOrItsTopicsFails() {
        ObjectNode broken = ComposeRules.copy(compose);
        ObjectNode services = (ObjectNode) broken.path("services");
        ((ObjectNode) services.path("audit-svc")).remove("healthcheck");
        ((ObjectNode) services.path("audit-svc")).remove("deploy");
        ((ObjectNode) services.path("audit-svc").path("depends_on")).remove("kafka-topics");

        assertThat(rules.problems(broken)).containsExactlyInAnyOrder(
                "audit-svc: no healthcheck (it must ask localhost:8186/q/health)",
                "audit-svc: must wait for postgres and kafka-topics, waits for [postgres]",
                "audit-svc: no deploy.resources.limits.cpus and .memory");
    }

    @Test
    void aServiceLoggingInAsTheSuperuserOrAsAnOwnerFails() {
        ObjectNode broken = ComposeRules.copy(compose);
        ObjectNode services = (ObjectNode) broken.path("services");
        ((ObjectNode) services.path("audit-svc").path("environment")).put("CRYO_DB_USER", "postgres");
        ((ObjectNode) services.path("scanner-svc").path("environment")).put("CRYO_DB_USER", "cryo_audit_owner");
        ((ObjectNode) services.path("planner-svc").path("environment")).remove("CRYO_DB_OWNER");

        assertThat(rules.problems(broken)).containsExactlyInAnyOrder(
                "audit-svc: CRYO_DB_USER is the superuser postgres (it must be cryo_audit)",
                "scanner-svc: CRYO_DB_USER is cryo_audit_owner (it must be cryo_scanner)",
                "planner-svc: sets no CRYO_DB_OWNER (it must be cryo_planner_owner)");
    }

    @Test
    void aKafkaClientWithoutCredentialsOfItsOwnFails() {
        ObjectNode broken = ComposeRules.copy(compose);
        ObjectNode services = (ObjectNode) broken.path("services");
        ((ObjectNode) services.path("scorer-svc").path("environment")).remove("CRYO_KAFKA_PASSWORD");
        ((ObjectNode) services.path("executor-svc").path("environment"))
                .put("CRYO_KAFKA_PASSWORD", "${CRYO_GOVERNOR_KAFKA_PASSWORD:?set CRYO_GOVERNOR_KAFKA_PASSWORD in .env}");
        ((ObjectNode) services.path("audit-svc").path("environment")).put("CRYO_KAFKA_PASSWORD", "hunter2");
        ((ObjectNode) services.path("planner-svc").path("environment")).put("CRYO_KAFKA_USER", "cryo-admin");
        ((ObjectNode) services.path("governor-svc").path("environment")).put("CRYO_KAFKA_SECURITY_PROTOCOL", "PLAINTEXT");

        assertThat(rules.problems(broken)).containsExactlyInAnyOrder(
                "scorer-svc: sets no CRYO_KAFKA_PASSWORD (it must be ${CRYO_SCORER_KAFKA_PASSWORD:?…} from .env)",
                "executor-svc: CRYO_KAFKA_PASSWORD is ${CRYO_GOVERNOR_KAFKA_PASSWORD}, the password of cryo-governor"
                        + " (it must be ${CRYO_EXECUTOR_KAFKA_PASSWORD})",
                "audit-svc: CRYO_KAFKA_PASSWORD is a literal; it must be ${CRYO_AUDIT_KAFKA_PASSWORD:?…} from .env",
                "planner-svc: CRYO_KAFKA_USER is cryo-admin, the broker's super user (it must be cryo-planner)",
                "governor-svc: its Kafka security protocol is PLAINTEXT; the broker requires SASL (SASL_PLAINTEXT or SASL_SSL)");
    }

    @Test
    void aBrokerThatLetsClientsInWithoutAuthenticationOrAclsFails() {
        ObjectNode broken = ComposeRules.copy(compose);
        ObjectNode kafka = (ObjectNode) broken.path("services").path("kafka").path("environment");
        kafka.put("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP", "CLIENT:PLAINTEXT,HOST:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT,INTERNAL:PLAINTEXT");
        kafka.put("KAFKA_LISTENERS", "CLIENT://:9092,HOST://:29092,CONTROLLER://:9093,INTERNAL://127.0.0.1:9094");
        kafka.put("KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND", "true");
        kafka.put("KAFKA_SUPER_USERS", "User:cryo-admin;User:ANONYMOUS;User:cryo-governor");

        assertThat(rules.problems(broken)).containsExactlyInAnyOrder(
                "kafka: the listener CLIENT (PLAINTEXT://:9092) lets other containers in without authentication;"
                        + " make it SASL_PLAINTEXT or bind it to 127.0.0.1",
                "kafka: the listener CONTROLLER (PLAINTEXT://:9093) lets other containers in without authentication;"
                        + " make it SASL_PLAINTEXT or bind it to 127.0.0.1",
                "kafka: allow.everyone.if.no.acl.found is true, so a topic without ACLs is open to everyone",
                "kafka: cryo-governor is a super user; a service's principal has only its ACLs");
    }

    @Test
    void aTopicJobThatIsNotTheSuperUserOrMissesAPrincipalFails() {
        ObjectNode broken = ComposeRules.copy(compose);
        ObjectNode job = (ObjectNode) broken.path("services").path("kafka-topics").path("environment");
        job.remove("CRYO_REPORTER_KAFKA_PASSWORD");
        job.put("CRYO_KAFKA_USER", "cryo-scanner");

        assertThat(rules.problems(broken)).containsExactlyInAnyOrder(
                "kafka-topics: CRYO_KAFKA_USER is cryo-scanner (it must be cryo-admin)",
                "kafka-topics: TopicAdmin must log in as cryo-admin (CRYO_KAFKA_USER)",
                "kafka-topics: sets no CRYO_REPORTER_KAFKA_PASSWORD: ${CRYO_REPORTER_KAFKA_PASSWORD:?…}"
                        + " (the password of cryo-reporter)");
    }

    private static List<String> iterate(java.util.Iterator<String> names) {
        List<String> list = new java.util.ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }
}
