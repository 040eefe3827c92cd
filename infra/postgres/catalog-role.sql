-- The local Iceberg catalog's role (./cryo infra up only): cryo_catalog logs in, owns the catalog's
-- database and nothing else, and is no superuser. Scanner, executor, Trino, Spark and the demo open
-- the catalog as it. Run by a superuser in the catalog's database with
-- psql -v catalog_role=cryo_catalog; idempotent. Tables an earlier runtime created as the superuser
-- are handed to the role.
\set ON_ERROR_STOP on
SELECT set_config('cryo.provision_catalog_role', :'catalog_role', false);

DO $$
DECLARE
    role   TEXT := current_setting('cryo.provision_catalog_role');
    object RECORD;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = role) THEN
        EXECUTE format('CREATE ROLE %I LOGIN', role);
    END IF;
    EXECUTE format('ALTER ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS', role);
    EXECUTE format('ALTER DATABASE %I OWNER TO %I', current_database(), role);
    FOR object IN SELECT c.oid::regclass::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                   WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm')
                     AND pg_get_userbyid(c.relowner) <> role LOOP
        EXECUTE format('ALTER TABLE %s OWNER TO %I', object.name, role);
    END LOOP;
END
$$;
