-- What an orphan listing left out because other tables keep files under the location, and why a
-- table's orphan removal is refused (its location is a bucket root or lies inside another table's).
ALTER TABLE table_state ADD COLUMN orphans_other_tables_files BIGINT NOT NULL DEFAULT 0;
ALTER TABLE table_state ADD COLUMN orphans_refusal TEXT;
