-- A plan made from a scan that began before a job's last commit to its table describes a table
-- that no longer exists: the governor drops it (as superseded) when that job finishes, or when
-- it arrives afterwards. The plan keeps what its scan saw; the job keeps its last commit.
ALTER TABLE plan ADD COLUMN snapshot_id BIGINT;
ALTER TABLE plan ADD COLUMN scan_started_at TIMESTAMPTZ;
ALTER TABLE job ADD COLUMN last_commit_snapshot_id BIGINT;
ALTER TABLE job ADD COLUMN last_commit_at TIMESTAMPTZ;
CREATE INDEX job_table_last_commit ON job (table_id, last_commit_at);
