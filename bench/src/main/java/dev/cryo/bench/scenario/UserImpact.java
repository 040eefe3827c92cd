package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.harness.BenchContext;

/** Scenario 4: dashboard queries on Trino while Cryo rewrites; needs Trino. */
public final class UserImpact implements Scenario {

    @Override
    public int id() {
        return 4;
    }

    @Override
    public String title() {
        return "user impact: Trino dashboard latency during a rewrite";
    }

    @Override
    public ScenarioResult run(BenchContext context) {
        if (!context.trinoAvailable()) {
            return ScenarioResult.notRun(id(), title(), "Trino is not started; start with --with trino");
        }
        return ScenarioResult.notRun(id(), title(),
                "Trino is running, but this harness version has no Trino query client for scenario 4 yet");
    }
}
