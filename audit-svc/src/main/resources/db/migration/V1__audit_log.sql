-- The audit log: one row per Kafka record Cryo ever published (and per dead letter), append-only,
-- hash-chained, partitioned by the month it was recorded.
--
-- Roles: Flyway runs this as the schema owner. The service itself logs in as ${writer_role}, which
-- may only INSERT and SELECT audit rows; triggers refuse UPDATE, DELETE and TRUNCATE even to the owner.
-- Placeholders: ${writer_role} (quarkus.flyway.placeholders.writer_role), ${flyway:defaultSchema}.

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${writer_role}') THEN
        CREATE ROLE ${writer_role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
    END IF;
EXCEPTION
    -- another schema's migration created it at the same moment
    WHEN duplicate_object OR unique_violation THEN NULL;
END
$$;

-- Partitioned by recorded_at, which grows with id: a month is a contiguous stretch of the chain,
-- so an archived (detached) month leaves one gap that audit_archive bridges.
CREATE TABLE audit_event (
    id              BIGINT      NOT NULL,
    recorded_at     TIMESTAMPTZ NOT NULL,
    -- the CloudEvents id; for dead letters and unreadable records kafka:<topic>/<partition>/<offset>
    event_id        TEXT        NOT NULL,
    kind            TEXT        NOT NULL CHECK (kind IN ('event', 'malformed', 'dead-letter')),
    event_time      TIMESTAMPTZ NOT NULL,
    event_type      TEXT,
    source          TEXT,
    table_id        TEXT,
    operations      TEXT[],
    engine          TEXT,
    status          TEXT,
    duration_ms     BIGINT,
    actor           TEXT,
    reason          TEXT,
    detail          TEXT,
    correlation_id  TEXT,
    job_id          TEXT,
    plan_id         TEXT,
    kafka_topic     TEXT        NOT NULL,
    kafka_partition INTEGER     NOT NULL,
    kafka_offset    BIGINT      NOT NULL,
    kafka_key       TEXT,
    kafka_timestamp TIMESTAMPTZ,
    headers         JSONB       NOT NULL,
    payload         JSONB,
    raw_value       BYTEA,
    prev_hash       TEXT        NOT NULL,
    row_hash        TEXT        NOT NULL,
    PRIMARY KEY (id, recorded_at)
) PARTITION BY RANGE (recorded_at);

CREATE INDEX audit_event_time ON audit_event (event_time, id);
CREATE INDEX audit_event_table_time ON audit_event (table_id, event_time, id);
CREATE INDEX audit_event_correlation ON audit_event (correlation_id, event_time, id);
-- No index on the Kafka position: only a rebuild's comparison looks rows up by it, and it reads its
-- whole scope anyway; every index costs each of the many inserts.

-- One row per stored event id: the unique index that makes ingestion idempotent (a partitioned
-- table cannot have a unique index without its partition key).
CREATE TABLE audit_event_id (
    event_id    TEXT        PRIMARY KEY,
    audit_id    BIGINT      NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL
);

-- The end of the chain. Only the chain trigger (SECURITY DEFINER) writes it.
CREATE TABLE audit_chain_head (
    singleton        BOOLEAN     PRIMARY KEY DEFAULT TRUE CHECK (singleton),
    last_id          BIGINT      NOT NULL,
    last_hash        TEXT        NOT NULL,
    last_recorded_at TIMESTAMPTZ NOT NULL
);
INSERT INTO audit_chain_head (last_id, last_hash, last_recorded_at) VALUES (0, repeat('0', 64), '-infinity');

-- Months that an operator archived (exported, then detached): verify bridges them with these links.
CREATE TABLE audit_archive (
    partition_name  TEXT        PRIMARY KEY,
    archived_table  TEXT        NOT NULL,
    month_start     TIMESTAMPTZ NOT NULL,
    first_id        BIGINT      NOT NULL,
    last_id         BIGINT      NOT NULL,
    row_count       BIGINT      NOT NULL,
    first_prev_hash TEXT        NOT NULL,
    last_hash       TEXT        NOT NULL,
    archived_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    archived_by     TEXT        NOT NULL DEFAULT current_user
);

-- Rebuilds and re-publications: who asked, what, how far it got, what it found.
CREATE TABLE replay_run (
    id              UUID        PRIMARY KEY,
    kind            TEXT        NOT NULL CHECK (kind IN ('rebuild', 'publish')),
    actor           TEXT        NOT NULL,
    requested_at    TIMESTAMPTZ NOT NULL,
    parameters      JSONB       NOT NULL,
    state           TEXT        NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
    records_total   BIGINT,
    records_done    BIGINT      NOT NULL DEFAULT 0,
    message         TEXT,
    result          JSONB,
    updated_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX replay_run_requested ON replay_run (requested_at DESC);

-- The content a row's hash covers, as text: a JSON array, version tag first, of every column but
-- the two hashes, in a fixed order. Times are written in UTC by to_char and bytes in base64, so the
-- text does not depend on the session's TimeZone or bytea_output. jsonb columns appear in jsonb's
-- own canonical form. A column added later is not part of version 'v1': a migration that adds one
-- must introduce 'v2' for new rows (with a version column), never change what 'v1' covers.
-- Polymorphic because the insert trigger sees a partition's row type; PL/pgSQL because it is about
-- twice as fast per row here as the equivalent SQL function.
CREATE FUNCTION audit_canonical(r ANYELEMENT) RETURNS TEXT
    LANGUAGE plpgsql STABLE
AS $$
BEGIN
    RETURN json_build_array('v1', r.id, to_char(r.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        r.event_id, r.kind, to_char(r.event_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), r.event_type,
        r.source, r.table_id, r.operations, r.engine, r.status, r.duration_ms, r.actor, r.reason, r.detail,
        r.correlation_id, r.job_id, r.plan_id, r.kafka_topic, r.kafka_partition, r.kafka_offset, r.kafka_key,
        to_char(r.kafka_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), r.headers, r.payload,
        encode(r.raw_value, 'base64'))::text;
END
$$;

-- What two stores must agree on for the same Kafka record: the canonical content without the
-- store-local id and recording time (same columns and order as audit_canonical otherwise).
CREATE FUNCTION audit_content(r ANYELEMENT) RETURNS TEXT
    LANGUAGE plpgsql STABLE
AS $$
BEGIN
    RETURN json_build_array('v1',
        r.event_id, r.kind, to_char(r.event_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), r.event_type,
        r.source, r.table_id, r.operations, r.engine, r.status, r.duration_ms, r.actor, r.reason, r.detail,
        r.correlation_id, r.job_id, r.plan_id, r.kafka_topic, r.kafka_partition, r.kafka_offset, r.kafka_key,
        to_char(r.kafka_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), r.headers, r.payload,
        encode(r.raw_value, 'base64'))::text;
END
$$;

-- Locks the chain for this transaction and tells the writer where it continues.
CREATE FUNCTION audit_chain_lock() RETURNS TABLE (last_id BIGINT, last_hash TEXT, last_recorded_at TIMESTAMPTZ)
    LANGUAGE sql VOLATILE SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp
AS $$
    SELECT h.last_id, h.last_hash, h.last_recorded_at FROM audit_chain_head h FOR UPDATE
$$;

-- Before each insert: the row must continue the chain (next id, no earlier recording time); its
-- prev_hash and row_hash are computed here, never taken from the writer. The running end of the
-- chain stays in a transaction-local setting and is saved to audit_chain_head once per statement
-- (updating that row once per inserted row costs quadratic time in a large transaction).
CREATE FUNCTION audit_chain_append() RETURNS TRIGGER
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp
AS $$
DECLARE
    state       TEXT := current_setting('cryo.audit_chain_${flyway:defaultSchema}', TRUE);
    last_id     BIGINT;
    last_hash   TEXT;
    last_micros BIGINT;
    new_micros  BIGINT := floor(extract(EPOCH FROM NEW.recorded_at) * 1000000);
BEGIN
    IF state IS NULL OR state = '' THEN
        SELECT h.last_id, h.last_hash,
               CASE WHEN h.last_recorded_at = '-infinity' THEN NULL
                    ELSE floor(extract(EPOCH FROM h.last_recorded_at) * 1000000) END
          INTO last_id, last_hash, last_micros
          FROM audit_chain_head h FOR UPDATE;
    ELSE
        last_id := split_part(state, '|', 1)::BIGINT;
        last_hash := split_part(state, '|', 2);
        last_micros := split_part(state, '|', 3)::BIGINT;
    END IF;
    IF NEW.id IS DISTINCT FROM last_id + 1 THEN
        RAISE EXCEPTION 'Cannot append audit row %: the chain continues with id %', NEW.id, last_id + 1
            USING ERRCODE = 'check_violation';
    END IF;
    IF last_micros IS NOT NULL AND new_micros < last_micros THEN
        RAISE EXCEPTION 'Cannot append audit row %: recorded_at % is earlier than the previous row''s', NEW.id, NEW.recorded_at
            USING ERRCODE = 'check_violation';
    END IF;
    NEW.prev_hash := last_hash;
    NEW.row_hash := encode(sha256(convert_to(NEW.prev_hash || audit_canonical(NEW), 'UTF8')), 'hex');
    PERFORM set_config('cryo.audit_chain_${flyway:defaultSchema}', NEW.id || '|' || NEW.row_hash || '|' || new_micros, TRUE);
    RETURN NEW;
END
$$;

CREATE FUNCTION audit_chain_save() RETURNS TRIGGER
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp
AS $$
DECLARE
    state TEXT := current_setting('cryo.audit_chain_${flyway:defaultSchema}', TRUE);
BEGIN
    IF state IS NOT NULL AND state <> '' THEN
        UPDATE audit_chain_head
           SET last_id = split_part(state, '|', 1)::BIGINT,
               last_hash = split_part(state, '|', 2),
               last_recorded_at = TIMESTAMPTZ 'epoch' + split_part(state, '|', 3)::BIGINT * INTERVAL '1 microsecond';
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER audit_event_chain BEFORE INSERT ON audit_event
    FOR EACH ROW EXECUTE FUNCTION audit_chain_append();
CREATE TRIGGER audit_event_chain_save AFTER INSERT ON audit_event
    FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_save();

-- Append-only, whoever asks: grants keep the writer out, these triggers keep the owner out too.
CREATE FUNCTION audit_refuse_change() RETURNS TRIGGER
    LANGUAGE plpgsql
AS $$
BEGIN
    RAISE EXCEPTION 'Cannot % %: audit rows are append-only (archive a month by detaching its partition)', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER audit_event_append_only BEFORE UPDATE OR DELETE ON audit_event
    FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_event_no_truncate BEFORE TRUNCATE ON audit_event
    FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_event_id_append_only BEFORE UPDATE OR DELETE ON audit_event_id
    FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_event_id_no_truncate BEFORE TRUNCATE ON audit_event_id
    FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_archive_append_only BEFORE UPDATE OR DELETE ON audit_archive
    FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_archive_no_truncate BEFORE TRUNCATE ON audit_archive
    FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();

-- The partition of the month that contains the given time, created when missing. The writer may
-- call it (new months must never make an insert fail) but cannot create anything else.
CREATE FUNCTION audit_ensure_partition(at TIMESTAMPTZ) RETURNS TEXT
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp
AS $$
DECLARE
    month_start TIMESTAMPTZ := date_trunc('month', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    name        TEXT := 'audit_event_' || to_char(month_start AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
    IF to_regclass(name) IS NULL THEN
        BEGIN
            EXECUTE format('CREATE TABLE %I PARTITION OF audit_event FOR VALUES FROM (%L) TO (%L)',
                           name, month_start, month_start + INTERVAL '1 month');
            -- statement-level triggers are not inherited: TRUNCATE of the partition itself is refused here
            EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change()',
                           name || '_no_truncate', name);
        EXCEPTION
            WHEN duplicate_table THEN NULL;
        END;
    END IF;
    RETURN name;
END
$$;

-- Archives one month (run by the owner, never by the service): records the links that bridge the
-- month in the chain, then detaches its partition and renames it <partition>_archived. Export the
-- month first (GET /api/v1/audit/export?recordedMonth=YYYY-MM); dump or drop the archived table later.
CREATE FUNCTION audit_archive_month(month_start TIMESTAMPTZ) RETURNS TEXT
    LANGUAGE plpgsql
    SET search_path = ${flyway:defaultSchema}, pg_temp
AS $$
DECLARE
    start_utc   TIMESTAMPTZ := date_trunc('month', month_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    name        TEXT := 'audit_event_' || to_char(start_utc AT TIME ZONE 'UTC', 'YYYY_MM');
    archived    TEXT := name || '_archived';
    first_row   RECORD;
    last_row    RECORD;
    rows_in     BIGINT;
BEGIN
    IF start_utc >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' THEN
        RAISE EXCEPTION 'Cannot archive %: only months before the current one can be archived', name;
    END IF;
    IF to_regclass(name) IS NULL THEN
        RAISE EXCEPTION 'Cannot archive %: there is no such partition', name;
    END IF;
    EXECUTE format('SELECT id, prev_hash FROM %I ORDER BY id LIMIT 1', name) INTO first_row;
    EXECUTE format('SELECT id, row_hash FROM %I ORDER BY id DESC LIMIT 1', name) INTO last_row;
    EXECUTE format('SELECT count(*) FROM %I', name) INTO rows_in;
    IF first_row.id IS NOT NULL THEN
        IF rows_in <> last_row.id - first_row.id + 1 THEN
            RAISE EXCEPTION 'Cannot archive %: it holds % rows but spans ids % to %', name, rows_in, first_row.id, last_row.id;
        END IF;
        INSERT INTO audit_archive (partition_name, archived_table, month_start, first_id, last_id, row_count, first_prev_hash, last_hash)
        VALUES (name, archived, start_utc, first_row.id, last_row.id, rows_in, first_row.prev_hash, last_row.row_hash);
    END IF;
    EXECUTE format('ALTER TABLE audit_event DETACH PARTITION %I', name);
    EXECUTE format('ALTER TABLE %I RENAME TO %I', name, archived);
    -- detaching drops the triggers the partition inherited: the archived rows stay append-only
    EXECUTE format('CREATE TRIGGER %I BEFORE UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION audit_refuse_change()',
                   archived || '_append_only', archived);
    RETURN archived;
END
$$;

SELECT audit_ensure_partition(now());
SELECT audit_ensure_partition(now() + INTERVAL '1 month');

-- The writer: read and append audit rows, nothing else.
GRANT USAGE ON SCHEMA ${flyway:defaultSchema} TO ${writer_role};
GRANT SELECT, INSERT ON audit_event, audit_event_id TO ${writer_role};
GRANT SELECT ON audit_chain_head, audit_archive TO ${writer_role};
GRANT SELECT, INSERT, UPDATE ON replay_run TO ${writer_role};
REVOKE ALL ON FUNCTION audit_chain_lock() FROM PUBLIC;
REVOKE ALL ON FUNCTION audit_ensure_partition(TIMESTAMPTZ) FROM PUBLIC;
REVOKE ALL ON FUNCTION audit_archive_month(TIMESTAMPTZ) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION audit_chain_lock() TO ${writer_role};
GRANT EXECUTE ON FUNCTION audit_ensure_partition(TIMESTAMPTZ) TO ${writer_role};
