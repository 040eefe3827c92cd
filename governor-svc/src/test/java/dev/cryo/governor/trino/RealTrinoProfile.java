package dev.cryo.governor.trino;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/** The governor reading the local Trino that {@code ./cryo infra up --with trino} starts. */
public class RealTrinoProfile implements QuarkusTestProfile {

    static String jdbcUrl() {
        String port = System.getenv().getOrDefault("CRYO_TRINO_PORT", "8080");
        return "jdbc:trino://127.0.0.1:" + port;
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("cryo.governor.trino.jdbc-url", jdbcUrl());
    }
}
