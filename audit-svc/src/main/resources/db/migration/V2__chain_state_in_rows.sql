-- Where the chain continues is read from the chain itself, never from a setting a session can
-- change. V1 carried the running end of the chain between the rows of one statement in a
-- transaction-local custom setting, which any session may set (set_config): the writer role could
-- make the trigger continue the chain from a forged head. Now a row's predecessor is the newest row
-- after the saved head (one this transaction appended earlier) or else the saved head itself; both
-- are written only by these SECURITY DEFINER triggers, as their owner. Rows that an earlier row of
-- the same statement inserted are visible here: the trigger function is VOLATILE.
CREATE OR REPLACE FUNCTION audit_chain_append() RETURNS TRIGGER
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp
AS $$
DECLARE
    last_id   BIGINT;
    last_hash TEXT;
    last_at   TIMESTAMPTZ;
    newest    RECORD;
BEGIN
    SELECT h.last_id, h.last_hash, h.last_recorded_at INTO last_id, last_hash, last_at
      FROM audit_chain_head h FOR UPDATE;
    SELECT e.id, e.row_hash, e.recorded_at INTO newest
      FROM audit_event e WHERE e.id > last_id ORDER BY e.id DESC LIMIT 1;
    IF FOUND THEN
        last_id := newest.id;
        last_hash := newest.row_hash;
        last_at := newest.recorded_at;
    END IF;
    IF NEW.id IS DISTINCT FROM last_id + 1 THEN
        RAISE EXCEPTION 'Cannot append audit row %: the chain continues with id %', NEW.id, last_id + 1
            USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.recorded_at < last_at THEN
        RAISE EXCEPTION 'Cannot append audit row %: recorded_at % is earlier than the previous row''s', NEW.id, NEW.recorded_at
            USING ERRCODE = 'check_violation';
    END IF;
    NEW.prev_hash := last_hash;
    NEW.row_hash := encode(sha256(convert_to(NEW.prev_hash || audit_canonical(NEW), 'UTF8')), 'hex');
    RETURN NEW;
END
$$;

-- After each insert statement: the newest row becomes the saved head.
CREATE OR REPLACE FUNCTION audit_chain_save() RETURNS TRIGGER
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp
AS $$
BEGIN
    UPDATE audit_chain_head h
       SET last_id = e.id, last_hash = e.row_hash, last_recorded_at = e.recorded_at
      FROM (SELECT id, row_hash, recorded_at FROM audit_event
             WHERE id > (SELECT last_id FROM audit_chain_head) ORDER BY id DESC LIMIT 1) e;
    RETURN NULL;
END
$$;

-- The writer (re-granted: its name is the service's login role, cryo_audit since roles are per
-- service; V1 granted the same to the role of that time).
GRANT USAGE ON SCHEMA ${flyway:defaultSchema} TO ${writer_role};
GRANT SELECT, INSERT ON audit_event, audit_event_id TO ${writer_role};
GRANT SELECT ON audit_chain_head, audit_archive TO ${writer_role};
GRANT SELECT, INSERT, UPDATE ON replay_run TO ${writer_role};
GRANT EXECUTE ON FUNCTION audit_chain_lock() TO ${writer_role};
GRANT EXECUTE ON FUNCTION audit_ensure_partition(TIMESTAMPTZ) TO ${writer_role};
