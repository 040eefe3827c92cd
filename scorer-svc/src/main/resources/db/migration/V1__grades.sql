-- Every grading, one row per scan of a table: the history, and the stored result that a redelivered scan
-- republishes (same event ids) instead of grading again.
CREATE TABLE grade_history (
    table_id               TEXT             NOT NULL,
    scan_id                TEXT             NOT NULL,
    snapshot_id            BIGINT,
    scanned_at             TIMESTAMPTZ      NOT NULL,
    graded_at              TIMESTAMPTZ      NOT NULL,
    score                  INTEGER          NOT NULL,
    grade                  TEXT             NOT NULL,
    data_bytes             BIGINT           NOT NULL,
    -- the table properties of the scan: the effective policy API recomputes the policy from them
    properties             JSONB            NOT NULL,
    -- the published events and their CloudEvents attributes
    table_graded           JSONB            NOT NULL,
    graded_event_id        TEXT             NOT NULL,
    grade_changed          JSONB,
    grade_changed_event_id TEXT,
    event_source           TEXT             NOT NULL,
    correlation_id         TEXT             NOT NULL,
    actor                  TEXT,
    -- set once the broker acknowledged the events: a redelivery after that publishes nothing again
    published_at           TIMESTAMPTZ,
    -- scan ids are meant to be UUIDs, but a producer reusing one for another table must not
    -- make that table's scan look like a redelivery
    PRIMARY KEY (table_id, scan_id)
);
CREATE INDEX grade_history_table ON grade_history (table_id, scanned_at DESC);

-- The current grade of every table (its newest scan). Graders lock a table's row (SELECT ... FOR
-- UPDATE) to decide whether the band moved, so two consumers cannot both announce the same change.
CREATE TABLE table_grade (
    table_id    TEXT        PRIMARY KEY,
    catalog     TEXT        NOT NULL,
    namespace   TEXT        NOT NULL,
    scan_id     TEXT        NOT NULL,
    snapshot_id BIGINT,
    scanned_at  TIMESTAMPTZ NOT NULL,
    graded_at   TIMESTAMPTZ NOT NULL,
    score       INTEGER     NOT NULL,
    grade       TEXT        NOT NULL,
    deductions  JSONB       NOT NULL,
    FOREIGN KEY (table_id, scan_id) REFERENCES grade_history (table_id, scan_id)
);
CREATE INDEX table_grade_grade ON table_grade (grade);
CREATE INDEX table_grade_catalog_namespace ON table_grade (catalog, namespace);
CREATE INDEX table_grade_score ON table_grade (score);
