package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.harness.BenchContext;

/** One scenario of PROTOCOL.md. */
public interface Scenario {

    int id();

    String title();

    /** Runs every trial; throws on a harness error (the run then fails). */
    ScenarioResult run(BenchContext context) throws Exception;
}
