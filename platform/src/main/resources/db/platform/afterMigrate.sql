-- After every migration (a Flyway callback, run as the schema's owner): the service's login role
-- may use its schema and read, insert, update and delete rows of its tables; it may not create,
-- alter, truncate or drop anything. A service whose migrations grant less sets runtime_grants=none.
DO $$
BEGIN
    IF '${runtime_grants}' = 'rows' AND '${runtime_role}' <> current_user THEN
        EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', '${flyway:defaultSchema}', '${runtime_role}');
        EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA %I TO %I',
                       '${flyway:defaultSchema}', '${runtime_role}');
        EXECUTE format('GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA %I TO %I',
                       '${flyway:defaultSchema}', '${runtime_role}');
        -- the migration history is the owner's alone
        EXECUTE format('REVOKE ALL ON %I.flyway_schema_history FROM %I', '${flyway:defaultSchema}', '${runtime_role}');
    END IF;
END
$$;
