#!/bin/bash
# Runs once, when the postgres service initialises its data volume: creates each service's login role
# (cryo_<service>) and migration owner role (cryo_<service>_owner), neither a superuser, with the
# passwords from CRYO_<SERVICE>_DB_PASSWORD and CRYO_<SERVICE>_DB_OWNER_PASSWORD
# (infra/postgres/service-roles.sql, mounted at /cryo-postgres).
set -euo pipefail
for service in scanner scorer planner governor executor audit; do
  upper=$(printf '%s' "$service" | tr '[:lower:]' '[:upper:]')
  password_var="CRYO_${upper}_DB_PASSWORD"
  owner_password_var="CRYO_${upper}_DB_OWNER_PASSWORD"
  psql -v ON_ERROR_STOP=1 -q --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
       -v service="$service" -v password="${!password_var:?}" -v owner_password="${!owner_password_var:?}" \
       -f /cryo-postgres/service-roles.sql
done
