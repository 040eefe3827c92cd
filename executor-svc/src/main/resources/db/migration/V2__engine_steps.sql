-- Trino and Spark steps, written down before their statements run. An engine's commit cannot
-- carry Cryo's cryo.job-id snapshot property, so after a crash the snapshot a step began at is
-- what connects the engine's commits in the table history to the step.
CREATE TABLE engine_step (
    job_id            text        NOT NULL REFERENCES job_attempt (job_id),
    step              text        NOT NULL,
    engine            text        NOT NULL,
    start_snapshot_id bigint,
    started_at        timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (job_id, step)
);
