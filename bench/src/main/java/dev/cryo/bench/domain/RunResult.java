package dev.cryo.bench.domain;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * One run of bench/run: the machine, the versions and every scenario's result.
 *
 * @param protocol the protocol version of PROTOCOL.md
 * @param mode quick or full
 * @param trials trials per scenario
 * @param startedAt start of the run
 * @param finishedAt end of the run
 * @param machine nproc, memory, CPU model, load averages
 * @param versions JDK, Cryo commit, Iceberg, Kafka, Quarkus, Trino
 * @param scenarios the results, in scenario order
 */
public record RunResult(int protocol, String mode, int trials, Instant startedAt, Instant finishedAt,
                        Map<String, String> machine, Map<String, String> versions, List<ScenarioResult> scenarios) {

    public RunResult {
        requireNonNull(mode, "mode is null");
        requireNonNull(startedAt, "startedAt is null");
        requireNonNull(finishedAt, "finishedAt is null");
        machine = Map.copyOf(requireNonNull(machine, "machine is null"));
        versions = Map.copyOf(requireNonNull(versions, "versions is null"));
        scenarios = List.copyOf(requireNonNull(scenarios, "scenarios is null"));
    }

    /** Lost or changed rows anywhere: the run fails. */
    public boolean hasFingerprintFailures() {
        return scenarios.stream().anyMatch(scenario -> !scenario.fingerprintFailures().isEmpty());
    }

    public boolean hasFailedScenarios() {
        return scenarios.stream().anyMatch(ScenarioResult::isFailed);
    }
}
