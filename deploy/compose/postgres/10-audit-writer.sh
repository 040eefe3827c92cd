#!/bin/bash
# Runs once, when the postgres service initialises its data volume: creates the append-only role that
# audit-svc writes as (its migration grants it INSERT and SELECT only), with the password from
# CRYO_AUDIT_DB_PASSWORD.
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
     -v password="$CRYO_AUDIT_DB_PASSWORD" <<'SQL'
CREATE ROLE cryo_audit_writer LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS
    PASSWORD :'password';
SQL
