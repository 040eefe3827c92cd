package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.Statistics;
import dev.cryo.bench.domain.Target;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Scenario 2's per-trial ratios of Cryo to the hand-run, the targets they are judged by, and its metrics' units. */
final class FragmentedVerdicts {

    /** Compute, data files after and wall time, Cryo's over the hand-run's, trial by trial. */
    static List<Metric> ratios(Map<String, List<Double>> values, String cryo, String hand, String compute,
                                       String label) {
        List<Metric> ratios = new ArrayList<>();
        addRatio(ratios, values, "compute cryo ÷ hand-run", cryo, hand, compute, label);
        addRatio(ratios, values, "data files after cryo ÷ hand-run", cryo, hand, "data files after", label);
        addRatio(ratios, values, "wall time cryo ÷ hand-run", cryo, hand, "wall time", label);
        return ratios;
    }

    /** A per-trial ratio metric, left out when a side lacks a trial's value (the notes say why). */
    static void addRatio(List<Metric> ratios, Map<String, List<Double>> values, String name, String cryo,
                                 String hand, String metric, String label) {
        List<Double> numerators = values.get(cryo + "|" + metric);
        List<Double> denominators = values.get(hand + "|" + metric);
        if (numerators != null && denominators != null && numerators.size() == denominators.size()) {
            ratios.add(new Metric(name, "", label, Statistics.ratios(numerators, denominators)));
        }
    }

    static List<Target> targets(Map<String, List<Double>> values, String cryo, String hand, String compute,
                                        String variant) {
        List<Double> cpuRatios = Statistics.ratios(values.get(cryo + "|" + compute), values.get(hand + "|" + compute));
        return List.of(
                Target.within("same file count as the hand-run SQL (± 5 %)" + variant,
                        values.get(cryo + "|data files after"), values.get(hand + "|data files after"), 0.05),
                Target.within("same bytes as the hand-run SQL (± 5 %)" + variant,
                        values.get(cryo + "|bytes after"), values.get(hand + "|bytes after"), 0.05),
                Target.atMost("compute ≤ 1.1 × hand-run" + variant, cpuRatios, 1.1, "×"));
    }

    /** The unit of a scenario-2 metric, from its name. */
    static String unit(String name) {
        if (name.contains("speedup")) {
            return "×";
        }
        if (name.startsWith("failed")) {
            return "queries";
        }
        if (name.contains("time") || name.contains("CPU") || name.startsWith("dashboard mix")) {
            return "s";
        }
        return name.startsWith("bytes") ? "bytes" : "files";
    }

    private FragmentedVerdicts() {
    }
}
