package dev.cryo.governor.trino;

import dev.cryo.testsupport.Infrastructure;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/** The governor reading the local Trino that {@code ./cryo infra up --with trino} starts. */
public class RealTrinoProfile implements QuarkusTestProfile {

    static String jdbcUrl() {
        return Infrastructure.trinoJdbcUrl();
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("cryo.governor.trino.jdbc-url", jdbcUrl());
    }
}
