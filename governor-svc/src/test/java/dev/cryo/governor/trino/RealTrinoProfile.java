package dev.cryo.governor.trino;

import dev.cryo.contracts.Topics;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;
import java.util.UUID;

/**
 * The governor reading the local Trino that {@code ./cryo infra up --with trino} starts.
 *
 * <p>It consumes as a group of its own that starts at the end of the shared topics. The
 * shared test group would first work through every plan that later modules' tests published
 * since the governor's own module ran (3 211 decisions in one CI run, more than the test's
 * minute), and only then reach the test's plan.
 */
public class RealTrinoProfile implements QuarkusTestProfile {

    static String jdbcUrl() {
        return Infrastructure.trinoJdbcUrl();
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        String group = "cryo-governor-trino-test-" + UUID.randomUUID().toString().substring(0, 8);
        KafkaTestClient.startGroupAtEnd(group, Topics.PLANS, Topics.JOBS_RESULTS);
        return Map.of("cryo.governor.trino.jdbc-url", jdbcUrl(),
                "mp.messaging.connector.smallrye-kafka.group.id", group);
    }
}
