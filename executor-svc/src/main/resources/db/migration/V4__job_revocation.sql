-- Jobs the governor withdrew after their admission because an operator paused the table
-- (JobRevoked). Any executor checks it before starting a job and before each step, so a
-- revocation taken up by one executor stops the job on whichever executor has it.
CREATE TABLE job_revocation (
    job_id     text PRIMARY KEY,
    plan_id    text        NOT NULL,
    table_id   text        NOT NULL,
    pause_id   text        NOT NULL,
    message    text        NOT NULL,
    revoked_at timestamptz NOT NULL,
    noted_at   timestamptz NOT NULL DEFAULT now()
);
