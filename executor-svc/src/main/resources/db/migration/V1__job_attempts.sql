-- One row per job: who runs it now (owner + heartbeat), which attempt this is, and how it ended.
-- Executors coordinate takeovers through this row: an owner whose heartbeat is older than the
-- lease timeout may be replaced, so two executors never run the same job at once.
CREATE TABLE job_attempt (
    job_id            text PRIMARY KEY,
    plan_id           text        NOT NULL,
    table_id          text        NOT NULL,
    owner             text        NOT NULL,
    attempt           integer     NOT NULL,
    state             text        NOT NULL CHECK (state IN ('running', 'finished')),
    started_at        timestamptz NOT NULL DEFAULT now(),
    heartbeat_at      timestamptz NOT NULL DEFAULT now(),
    finished_at       timestamptz,
    outcome           text,
    error_code        text,
    message           text,
    finished_event_id text,
    finished_event    text
);

CREATE INDEX job_attempt_started ON job_attempt (started_at DESC);

-- One row per committed or failed step (a chunk of a partition-scoped operation, or a whole-table
-- operation), with the OperationFinished event published for it, so a redelivered job republishes
-- the same event instead of running the step again.
CREATE TABLE job_step (
    job_id      text        NOT NULL REFERENCES job_attempt (job_id),
    step        text        NOT NULL,
    attempt     integer     NOT NULL,
    status      text        NOT NULL,
    snapshot_id bigint,
    event_id    text        NOT NULL,
    event       text        NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (job_id, step)
);
