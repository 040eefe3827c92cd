package dev.cryo.planner.domain;

/** Where a stored plan stands, as far as the planner knows. */
public enum PlanStatus {
    /** Published; no newer plan of the table and no report that it finished. */
    PLANNED,
    /** A newer plan of the table replaced it. */
    SUPERSEDED,
    /** An executor reported the job of this plan finished. */
    FINISHED
}
