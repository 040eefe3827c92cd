-- How each finished job kept its plan's promise (the JobScored published for it), and what the
-- planner needs until the first grade after the job arrives: which operations changed the table
-- and when the last of them did. Operations are comma-separated ids in the fixed order.
CREATE TABLE job_score (
    job_id              TEXT        PRIMARY KEY,
    plan_id             TEXT        NOT NULL,
    table_id            TEXT        NOT NULL,
    correlation_id      TEXT,
    actor               TEXT,
    changed_operations  TEXT        NOT NULL DEFAULT '',
    noop_operations     TEXT        NOT NULL DEFAULT '',
    last_change_at      TIMESTAMPTZ,
    outcome             TEXT,
    finished_at         TIMESTAMPTZ,
    scored_at           TIMESTAMPTZ,
    event_id            TEXT,
    trigger_event_id    TEXT,
    payload             TEXT
);
CREATE INDEX job_score_waiting ON job_score (table_id) WHERE finished_at IS NOT NULL AND scored_at IS NULL;
CREATE INDEX job_score_finished ON job_score (finished_at DESC);
CREATE INDEX job_score_table ON job_score (table_id, finished_at DESC);
CREATE INDEX job_score_plan ON job_score (plan_id);
CREATE INDEX job_score_trigger ON job_score (trigger_event_id);
