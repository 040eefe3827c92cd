-- A job's error code, so that jobs failing again and again with the same lasting error can be
-- told apart from transient failures; and when an operator last resumed a table that such a
-- streak blocked (only jobs finished after it count).
ALTER TABLE job ADD COLUMN error_code TEXT;

CREATE TABLE table_resume (
    table_id   TEXT        PRIMARY KEY,
    resumed_at TIMESTAMPTZ NOT NULL,
    resumed_by TEXT        NOT NULL
);
