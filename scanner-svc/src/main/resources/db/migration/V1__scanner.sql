-- What the scanner knows per table: the changes it was told about (change_version counts them)
-- and the last scan it published (scanned_version = the change_version that scan covered).
-- A table with change_version > scanned_version still needs a scan, even after a restart.
CREATE TABLE table_state (
    table_id                 TEXT        PRIMARY KEY,
    catalog                  TEXT        NOT NULL,
    change_version           BIGINT      NOT NULL DEFAULT 0,
    scanned_version          BIGINT      NOT NULL DEFAULT 0,
    last_change_id           TEXT,
    last_change_source       TEXT,
    last_change_actor        TEXT,
    last_change_detected_at  TIMESTAMPTZ,
    last_change_committed_at TIMESTAMPTZ,
    last_change_job_id       TEXT,
    pending_since            TIMESTAMPTZ,
    last_scan_id             TEXT,
    last_scanned_at          TIMESTAMPTZ,
    last_scan_source         TEXT,
    last_snapshot_id         BIGINT,
    last_scan                TEXT,
    last_error               TEXT,
    last_error_at            TIMESTAMPTZ,
    orphans_listed_at        TIMESTAMPTZ,
    orphans_listed_files     BIGINT,
    orphan_files             BIGINT,
    orphan_bytes             BIGINT,
    orphans_age_floor        TEXT
);
CREATE INDEX table_state_pending ON table_state (table_id) WHERE change_version > scanned_version;

-- Per-manifest aggregates: manifests never change, so the key is the path (and the file-size
-- terms the counts used); a rescan reads only manifests that are not here.
CREATE TABLE manifest_aggregate (
    manifest_path TEXT        NOT NULL,
    terms         TEXT        NOT NULL,
    partitions    TEXT        NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (manifest_path, terms)
);

-- The catalog watcher's memory: the metadata pointer it last saw per table.
CREATE TABLE watched_pointer (
    table_id          TEXT PRIMARY KEY,
    catalog           TEXT NOT NULL,
    metadata_location TEXT NOT NULL
);
CREATE INDEX watched_pointer_catalog ON watched_pointer (catalog);

CREATE TABLE catalog_state (
    catalog       TEXT        PRIMARY KEY,
    reachable     BOOLEAN     NOT NULL,
    tables        INTEGER,
    last_poll_at  TIMESTAMPTZ,
    last_error    TEXT,
    last_error_at TIMESTAMPTZ
);
