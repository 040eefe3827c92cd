-- Operators' releases of the orphan share brake. A release lets the next remove_orphan_files run on
-- its table that the brake would stop go ahead; that run uses it up (used_by_job), so one release
-- lets exactly one run through. Unused releases lapse at expires_at.
CREATE TABLE orphan_brake_release (
    id          bigserial   PRIMARY KEY,
    table_id    text        NOT NULL,
    operator    text        NOT NULL,
    reason      text        NOT NULL,
    released_at timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_by_job text,
    used_at     timestamptz
);

CREATE INDEX orphan_brake_release_pending ON orphan_brake_release (table_id) WHERE used_by_job IS NULL;
