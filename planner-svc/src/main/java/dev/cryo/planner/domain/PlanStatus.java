package dev.cryo.planner.domain;

/** Where a stored plan stands, as far as the planner knows from the executors' reports. */
public enum PlanStatus {
    /** Published; no newer plan of the table and no report that it started. */
    PLANNED,
    /** A newer plan of the table replaced it before it started. */
    SUPERSEDED,
    /** An executor reported its job started (the governor admitted it). */
    STARTED,
    /** An executor reported its job finished, whatever the outcome. */
    FINISHED
}
