package dev.cryo.planner.domain;

/** Why a grade is planned: the event flow, or an operator who asked for it ("fix now"). */
public enum Trigger {
    /** A grade the scorer published after a table change. */
    EVENT_FLOW,
    /** A grade that carries an operator's request: planned even for a grade-A table. */
    OPERATOR_REQUEST;

    /** The trigger of a grade whose envelope carries {@code actor} (optional). */
    public static Trigger ofActor(String actor) {
        return actor == null || actor.isBlank() ? EVENT_FLOW : OPERATOR_REQUEST;
    }
}
