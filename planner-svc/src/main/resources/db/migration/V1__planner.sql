-- Scans as the scanner published them (TableScanned JSON): the planner plans from these and
-- never reads the engine. Only the last few per table are kept (cryo.planner.scans-kept-per-table).
-- A scan is identified within its table: scan ids are UUIDs from the scanner, but nothing stops
-- another producer from reusing one for a different table.
CREATE TABLE scan (
    table_id    TEXT        NOT NULL,
    scan_id     TEXT        NOT NULL,
    scanned_at  TIMESTAMPTZ NOT NULL,
    payload     TEXT        NOT NULL,
    stored_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, scan_id)
);
CREATE INDEX scan_table ON scan (table_id, scanned_at DESC);

-- One row per table: the latest grade (TableGraded JSON and its envelope), and whether it waits for
-- its scan. Every change to a table's plans happens with this row locked, so the two consumers
-- (scans and grades) never both miss each other.
CREATE TABLE table_state (
    table_id              TEXT        PRIMARY KEY,
    grade_event_id        TEXT,
    grade_correlation_id  TEXT,
    grade_actor           TEXT,
    graded_at             TIMESTAMPTZ,
    scan_id               TEXT,
    grade_payload         TEXT,
    waiting_for_scan      BOOLEAN     NOT NULL DEFAULT false
);

-- Every plan published, with its MaintenancePlanned JSON and the envelope attributes needed to
-- publish it again, byte for byte, when its input is redelivered.
CREATE TABLE plan (
    plan_id               TEXT        PRIMARY KEY,
    table_id              TEXT        NOT NULL,
    event_id              TEXT        NOT NULL UNIQUE,
    grade_event_id        TEXT        NOT NULL UNIQUE,
    trigger_event_id      TEXT        NOT NULL,
    correlation_id        TEXT        NOT NULL,
    actor                 TEXT,
    scan_id               TEXT        NOT NULL,
    planned_at            TIMESTAMPTZ NOT NULL,
    status                TEXT        NOT NULL,
    status_changed_at     TIMESTAMPTZ NOT NULL,
    supersedes_plan_id    TEXT,
    superseded_by_plan_id TEXT,
    payload               TEXT        NOT NULL
);
CREATE INDEX plan_table ON plan (table_id, planned_at DESC);
CREATE INDEX plan_trigger ON plan (trigger_event_id);
