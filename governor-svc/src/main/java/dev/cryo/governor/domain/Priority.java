package dev.cryo.governor.domain;

import java.util.Comparator;
import java.util.List;

/**
 * The order in which admissible plans get slots: the worst score first (the table that needs it
 * most), then the oldest plan, then the one that arrived first.
 */
public final class Priority {

    public static final Comparator<PlanCandidate> ORDER = Comparator
            .comparingInt(PlanCandidate::score)
            .thenComparing(PlanCandidate::plannedAt)
            .thenComparingLong(PlanCandidate::arrival)
            .thenComparing(PlanCandidate::planId);

    /** The candidates in admission order. */
    public static List<PlanCandidate> order(List<PlanCandidate> candidates) {
        return candidates.stream().sorted(ORDER).toList();
    }

    private Priority() {
    }
}
