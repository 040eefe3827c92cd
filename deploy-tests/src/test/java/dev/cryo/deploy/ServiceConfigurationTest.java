package dev.cryo.deploy;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The keys derived from the services' code, and the environment-variable rule applied to them. */
class ServiceConfigurationTest {

    private final RepositoryLayout repository = RepositoryLayout.locate();

    @Test
    void keysComeFromTheMappingsTheAnnotationsAndThePropertiesOfTheServiceAndItsModules() {
        ServiceConfiguration governor = ServiceConfiguration.read(repository, "governor-svc");

        assertThat(governor.keys()).extracting(ConfigKey::name)
                .contains("cryo.governor.cooldown", "cryo.governor.slots.native", "cryo.governor.trino.max-foreign-queries",
                        "cryo.service.name", "cryo.security.open-reads", "cryo.catalogs.*.**",
                        "cryo.consumer.max-attempts", "kafka.bootstrap.servers", "quarkus.http.port");
        assertThat(governor.variables()).contains("KAFKA_BOOTSTRAP_SERVERS", "CRYO_DB_URL", "CRYO_GOVERNOR_PORT",
                "CRYO_GOVERNOR_TRINO_JDBC_URL", "JAVA_OPTS_APPEND");
        assertThat(governor.defaultHttpPort()).isEqualTo(8184);
        assertThat(ServiceConfiguration.modulesOf(repository, "governor-svc")).contains("governor-svc", "platform", "contracts");
    }

    @Test
    void mapKeysAreWildcardsAndNestedInterfacesAreWalked() {
        ServiceConfiguration scorer = ServiceConfiguration.read(repository, "scorer-svc");

        assertThat(scorer.keys()).extracting(ConfigKey::name)
                .contains("cryo.scorer.checks.*.warning", "cryo.scorer.policies.*.checks.*.critical",
                        "cryo.scorer.metrics.table-scores", "cryo.scorer.api.history-limit");
        assertThat(scorer.rejection("CRYO_SCORER_CHECKS_SMALL_FILES_WARNING")).isEmpty();
    }

    @Test
    void anUpperCaseVariableIsValidWhenItIsTheEnvironmentFormOfAKey() {
        ServiceConfiguration governor = ServiceConfiguration.read(repository, "governor-svc");

        assertThat(governor.rejection("CRYO_GOVERNOR_SLOTS_NATIVE")).isEmpty();
        assertThat(governor.rejection("QUARKUS_DATASOURCE_JDBC_MAX_SIZE")).isEmpty();
        assertThat(governor.rejection("CRYO_GOVERNOR_SLOTS_NATVE")).hasValue(
                "CRYO_GOVERNOR_SLOTS_NATVE is not a configuration key of governor-svc (did you mean CRYO_GOVERNOR_SLOTS_NATIVE?)");
        assertThat(governor.rejection("CRYO_CONSOLE_FLEET_LIMIT")).hasValueSatisfying(
                reason -> assertThat(reason).startsWith("CRYO_CONSOLE_FLEET_LIMIT is not a configuration key of governor-svc"));
    }

    @Test
    void catalogPropertiesMustBeNamedAfterTheIcebergPropertyItself() {
        ServiceConfiguration executor = ServiceConfiguration.read(repository, "executor-svc");

        assertThat(executor.rejection("cryo.catalogs.lakehouse.io-impl")).isEmpty();
        assertThat(executor.rejection("cryo.catalogs.lakehouse.s3.path-style-access")).isEmpty();
        assertThat(executor.rejection("CRYO_CATALOGS_LAKEHOUSE_IO_IMPL")).hasValueSatisfying(reason -> assertThat(reason)
                .contains("falls under cryo.catalogs.*.**").contains("name the variable after the property itself"));
        assertThat(executor.rejection("cryo.catalog.lakehouse.uri")).hasValueSatisfying(reason -> assertThat(reason)
                .startsWith("cryo.catalog.lakehouse.uri is not a configuration key of executor-svc"));
    }

    @Test
    void theConsoleReadsNoKafkaAndNoDatabase() {
        ServiceConfiguration console = ServiceConfiguration.read(repository, "console");

        assertThat(console.rejection("CRYO_SCANNER_URL")).isEmpty();
        assertThat(console.rejection("CRYO_CONSOLE_SESSION_KEY")).isEmpty();
        assertThat(console.rejection("KAFKA_BOOTSTRAP_SERVERS")).hasValue(
                "KAFKA_BOOTSTRAP_SERVERS is not a configuration key of console");
        assertThat(console.rejection("CRYO_DB_URL")).isPresent();
    }

    @Test
    void effectiveValuesFollowTheEnvironmentThenTheFileThenTheMappingDefault() {
        ServiceConfiguration executor = ServiceConfiguration.read(repository, "executor-svc");

        assertThat(executor.effectiveValue("cryo.executor.concurrent-jobs", Map.of())).hasValue("2");
        assertThat(executor.effectiveValue("cryo.executor.concurrent-jobs", Map.of("CRYO_EXECUTOR_CONCURRENT_JOBS", "3")))
                .hasValue("3");
        assertThat(executor.effectiveValue("quarkus.http.port", Map.of())).hasValue("8185");
        assertThat(executor.effectiveValue("quarkus.http.port", Map.of("CRYO_EXECUTOR_PORT", "9000"))).hasValue("9000");
        assertThat(executor.effectiveValue("cryo.service.name", Map.of())).hasValue("executor");
    }

    @Test
    void methodNamesBecomeKebabCaseKeys() {
        assertThat(List.of("watcherInterval", "maxForeignQueries", "tokens").stream().map(ConfigMappingKeys::kebab))
                .containsExactly("watcher-interval", "max-foreign-queries", "tokens");
        assertThat(EnvironmentNames.environmentForm("quarkus.log.category.\"org.apache.kafka\".level"))
                .isEqualTo("QUARKUS_LOG_CATEGORY__ORG_APACHE_KAFKA__LEVEL");
    }
}
