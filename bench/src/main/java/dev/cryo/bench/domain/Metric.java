package dev.cryo.bench.domain;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One measured quantity of a scenario for one contender, per trial.
 *
 * @param name what is measured ("rewritten partitions")
 * @param unit its unit ("s", "files", "", …)
 * @param contender "cryo", "dag", "hand-run", "idle", … (or "-" when not a comparison)
 * @param perTrial one value per trial, in trial order
 */
public record Metric(String name, String unit, String contender, List<Double> perTrial) {

    public Metric {
        requireNonNull(name, "name is null");
        requireNonNull(unit, "unit is null");
        requireNonNull(contender, "contender is null");
        perTrial = List.copyOf(requireNonNull(perTrial, "perTrial is null"));
    }

    public Summary summary() {
        return Statistics.summarize(perTrial);
    }
}
