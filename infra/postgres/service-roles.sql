-- One service's database roles, by least privilege. Run by a superuser (or a role with CREATEROLE
-- that may grant CREATE on the database) in Cryo's database:
--
--   psql -v service=scanner -v password=... -v owner_password=... -f infra/postgres/service-roles.sql
--
-- cryo_<service>        the role the service logs in as; its migrations grant it rows of its own
--                       schema and nothing else (the audit's: INSERT and SELECT of audit rows)
-- cryo_<service>_owner  owns the service's schema; only the migration step (Flyway) logs in as it
--
-- Neither is a superuser or may create roles or databases. Idempotent: re-running it resets the
-- attributes and passwords (an empty password leaves the current one). On a database where an
-- earlier Cryo let every service run as one role, the service's schemas (<service> and
-- <service>_<anything>, e.g. the tests' <service>_test) and every object in them are handed to the
-- owner role.
\set ON_ERROR_STOP on
\if :{?password}
\else
\set password ''
\endif
\if :{?owner_password}
\else
\set owner_password ''
\endif
SELECT set_config('cryo.provision_service', :'service', false),
       set_config('cryo.provision_password', :'password', false),
       set_config('cryo.provision_owner_password', :'owner_password', false);

DO $$
DECLARE
    service   TEXT := current_setting('cryo.provision_service');
    runtime   TEXT := 'cryo_' || service;
    owner     TEXT := 'cryo_' || service || '_owner';
    passwords TEXT[] := ARRAY[current_setting('cryo.provision_password'), current_setting('cryo.provision_owner_password')];
    roles     TEXT[] := ARRAY[runtime, owner];
    schema    RECORD;
    object    RECORD;
BEGIN
    IF service !~ '^[a-z][a-z0-9]*$' THEN
        RAISE EXCEPTION 'Cannot provision roles for service "%": a service name is lower-case letters and digits', service;
    END IF;
    FOR i IN 1 .. 2 LOOP
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = roles[i]) THEN
            BEGIN
                EXECUTE format('CREATE ROLE %I LOGIN', roles[i]);
            EXCEPTION
                -- another provisioning created it at the same moment
                WHEN duplicate_object OR unique_violation THEN NULL;
            END;
        END IF;
        EXECUTE format('ALTER ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS', roles[i]);
        IF passwords[i] <> '' THEN
            EXECUTE format('ALTER ROLE %I PASSWORD %L', roles[i], passwords[i]);
        END IF;
    END LOOP;
    -- Flyway creates the service's schema on first start (and the tests' clean drops and recreates it).
    EXECUTE format('GRANT CREATE ON DATABASE %I TO %I', current_database(), owner);

    FOR schema IN SELECT n.oid, n.nspname FROM pg_namespace n
                   WHERE (n.nspname = service OR n.nspname LIKE service || '\_%')
                     AND pg_get_userbyid(n.nspowner) <> owner LOOP
        RAISE NOTICE 'Handing schema % and its objects to %', schema.nspname, owner;
        EXECUTE format('ALTER SCHEMA %I OWNER TO %I', schema.nspname, owner);
        -- tables first: their identity and serial sequences and their indexes follow them
        FOR object IN SELECT c.oid::regclass::text AS name FROM pg_class c
                       WHERE c.relnamespace = schema.oid AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
                         AND pg_get_userbyid(c.relowner) <> owner LOOP
            EXECUTE format('ALTER TABLE %s OWNER TO %I', object.name, owner);
        END LOOP;
        FOR object IN SELECT c.oid::regclass::text AS name FROM pg_class c
                       WHERE c.relnamespace = schema.oid AND c.relkind = 'S'
                         AND pg_get_userbyid(c.relowner) <> owner LOOP
            EXECUTE format('ALTER SEQUENCE %s OWNER TO %I', object.name, owner);
        END LOOP;
        FOR object IN SELECT p.oid::regprocedure::text AS name FROM pg_proc p
                       WHERE p.pronamespace = schema.oid AND pg_get_userbyid(p.proowner) <> owner LOOP
            EXECUTE format('ALTER ROUTINE %s OWNER TO %I', object.name, owner);
        END LOOP;
    END LOOP;
END
$$;
