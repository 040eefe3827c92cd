-- The governor's state: what waits, what runs, who holds which table, and the operators' rules.
-- Every instance of the governor works on these rows; row locks and unique keys keep two
-- instances from admitting the same table twice.

-- Maintenance slots and load limits per engine, seeded from configuration, changed by operators.
CREATE TABLE engine_setting (
    engine              TEXT        PRIMARY KEY,
    slots               INT         NOT NULL CHECK (slots >= 0),
    max_foreign_queries INT         NOT NULL CHECK (max_foreign_queries >= 0),
    updated_by          TEXT        NOT NULL,
    updated_at          TIMESTAMPTZ NOT NULL,
    -- the load the last decision on this engine saw
    load_queries        INT,
    load_limit          INT,
    load_problem        TEXT,
    load_observed_at    TIMESTAMPTZ
);

-- Every plan received, and where it stands: queued (waiting, with the reason of its last
-- deferral), admitted (it has a job), done (its job finished) or superseded (dropped).
CREATE TABLE plan (
    plan_id            TEXT        PRIMARY KEY,
    arrival            BIGSERIAL   NOT NULL UNIQUE,
    table_id           TEXT        NOT NULL,
    score              INT         NOT NULL,
    planned_at         TIMESTAMPTZ NOT NULL,
    received_at        TIMESTAMPTZ NOT NULL,
    supersedes_plan_id TEXT,
    event_id           TEXT        NOT NULL,
    correlation_id     TEXT        NOT NULL,
    actor              TEXT,
    payload            TEXT        NOT NULL,
    stage              TEXT        NOT NULL CHECK (stage IN ('queued', 'admitted', 'done', 'superseded')),
    reason             TEXT,
    message            TEXT,
    retry_after        TIMESTAMPTZ,
    deferred_at        TIMESTAMPTZ,
    engine             TEXT,
    deferrals          INT         NOT NULL DEFAULT 0,
    next_evaluation_at TIMESTAMPTZ NOT NULL,
    job_id             TEXT
);
CREATE INDEX plan_due ON plan (next_evaluation_at) WHERE stage = 'queued';
CREATE INDEX plan_table ON plan (table_id);
CREATE INDEX plan_supersedes ON plan (supersedes_plan_id);

-- Every job admitted. A job keeps its engine slot until it finishes: no two unfinished jobs
-- share a slot.
CREATE TABLE job (
    job_id            TEXT        PRIMARY KEY,
    plan_id           TEXT        NOT NULL UNIQUE REFERENCES plan (plan_id),
    table_id          TEXT        NOT NULL,
    engine            TEXT        NOT NULL,
    slot              INT         NOT NULL,
    attempt           INT         NOT NULL,
    admitted_at       TIMESTAMPTZ NOT NULL,
    admitted_by       TEXT        NOT NULL,
    started_at        TIMESTAMPTZ,
    executor_id       TEXT,
    last_heartbeat_at TIMESTAMPTZ,
    operation         TEXT,
    chunks_done       INT,
    chunks_total      INT,
    finished_at       TIMESTAMPTZ,
    outcome           TEXT,
    note              TEXT
);
CREATE UNIQUE INDEX job_slot_in_use ON job (engine, slot) WHERE finished_at IS NULL;
CREATE UNIQUE INDEX job_table_in_use ON job (table_id) WHERE finished_at IS NULL;
CREATE INDEX job_table_finished ON job (table_id, finished_at);

-- One job per table at a time, on a lease that heartbeats renew.
CREATE TABLE table_lock (
    table_id         TEXT        PRIMARY KEY,
    job_id           TEXT        NOT NULL UNIQUE REFERENCES job (job_id),
    acquired_at      TIMESTAMPTZ NOT NULL,
    lease_expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX table_lock_lease ON table_lock (lease_expires_at);

-- Events written in the transaction of the decision that caused them, published afterwards:
-- a governor that stops in between publishes them when it (or another instance) runs again.
CREATE TABLE outbox (
    sequence       BIGSERIAL   PRIMARY KEY,
    event_id       TEXT        NOT NULL UNIQUE,
    event_type     TEXT        NOT NULL,
    subject        TEXT        NOT NULL,
    correlation_id TEXT        NOT NULL,
    actor          TEXT,
    event_time     TIMESTAMPTZ NOT NULL,
    payload        TEXT        NOT NULL,
    published_at   TIMESTAMPTZ
);
CREATE INDEX outbox_pending ON outbox (sequence) WHERE published_at IS NULL;

-- Operators' pauses, by table pattern.
CREATE TABLE pause (
    pause_id  TEXT        PRIMARY KEY,
    pattern   TEXT        NOT NULL,
    reason    TEXT        NOT NULL,
    paused_by TEXT        NOT NULL,
    paused_at TIMESTAMPTZ NOT NULL
);

-- Operators' policies, by table pattern; a NULL setting leaves it to broader patterns or the default.
CREATE TABLE policy (
    pattern    TEXT        PRIMARY KEY,
    cooldown   TEXT,
    windows    TEXT,
    engine     TEXT,
    updated_by TEXT        NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
