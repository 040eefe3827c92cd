# Local PostgreSQL from the machine's server binaries. Sourced by ./cryo.

PG_PORT="${CRYO_PG_PORT:-15432}"
PG_DIR="$RUNTIME/postgres"
PG_LOG="$PG_DIR/postgres.log"
PG_DATABASE=cryo
# The cluster's bootstrap superuser: the infrastructure (roles, the local Iceberg catalog, Trino,
# Spark, the demo writer, tests' checks) uses it; no Cryo service logs in as it.
PG_USER=cryo
# The services with a schema of their own: each logs in as cryo_<service> and migrates as
# cryo_<service>_owner (infra/postgres/service-roles.sql).
PG_SERVICES="scanner scorer planner governor executor audit"

pg_external() { [ -n "${CRYO_DB_URL:-}" ]; }

# The server binaries: the newest /usr/lib/postgresql/<version>/bin, or those on PATH.
pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -n "$dir" ] && [ -x "$dir/pg_ctl" ]; then
    echo "$dir"
  elif command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v pg_ctl)"
  fi
}

pg_install() {
  if [ -n "$(pg_bin)" ]; then
    return 0
  fi
  step "Installing PostgreSQL server binaries (Debian package postgresql)"
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null \
      || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null; } \
      || die "Cannot install PostgreSQL with apt-get; install the server binaries, or set CRYO_DB_URL to an existing server"
    # Debian's package starts a cluster of its own on 5432; Cryo runs its own on $PG_PORT.
    command -v pg_ctlcluster >/dev/null 2>&1 && pg_ctlcluster --force "$(ls /usr/lib/postgresql | sort -V | tail -n 1)" main stop 2>/dev/null || true
  else
    die "Cannot find PostgreSQL server binaries (pg_ctl): install PostgreSQL 14+, or set CRYO_DB_URL to an existing server"
  fi
}

# PostgreSQL refuses to run as root: as root, the server runs as the 'postgres' user.
pg_as() {
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

pg_data() { echo "$PG_DIR/data"; }

pg_running() {
  [ -f "$(pg_data)/postmaster.pid" ] && pg_as "$(pg_bin)/pg_ctl" -D "$(pg_data)" status >/dev/null 2>&1
}

pg_init() {
  local data
  data=$(pg_data)
  if [ -f "$data/PG_VERSION" ]; then
    return 0
  fi
  step "Initialising a PostgreSQL cluster in $data (first start)"
  mkdir -p "$data"
  touch "$PG_LOG"
  if [ "$(id -u)" -eq 0 ]; then
    chown -R postgres "$PG_DIR"
    pg_as test -w "$data" || die "Cannot initialise PostgreSQL: user 'postgres' cannot write $data (is a parent folder closed to other users?)"
  fi
  # Trust on loopback only: the cluster listens on 127.0.0.1 and holds local test data.
  pg_as "$(pg_bin)/initdb" -D "$data" -U "$PG_USER" --auth=trust --encoding=UTF8 --locale=C.UTF-8 >> "$PG_LOG" 2>&1 \
    || pg_as "$(pg_bin)/initdb" -D "$data" -U "$PG_USER" --auth=trust --encoding=UTF8 --no-locale >> "$PG_LOG" 2>&1 \
    || die "Cannot initialise PostgreSQL: see $PG_LOG"
  cat >> "$data/postgresql.conf" <<CONF

# Cryo local infrastructure
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = ''
max_connections = 200
shared_buffers = 128MB
fsync = on
logging_collector = off
CONF
}

pg_up() {
  if pg_external; then
    info "postgresql: external at $CRYO_DB_URL (CRYO_DB_URL), not started here"
    return 0
  fi
  pg_install
  if pg_running; then
    info "postgresql: already running on 127.0.0.1:$PG_PORT"
    pg_service_roles
    return 0
  fi
  if port_open 127.0.0.1 "$PG_PORT"; then
    die "Cannot start PostgreSQL: port $PG_PORT is taken by another process. Stop it, or set CRYO_DB_URL to use it."
  fi
  mkdir -p "$PG_DIR"
  pg_init
  step "Starting PostgreSQL on 127.0.0.1:$PG_PORT"
  pg_as "$(pg_bin)/pg_ctl" -D "$(pg_data)" -l "$PG_LOG" -w -t 60 start >/dev/null \
    || { tail -n 20 "$PG_LOG" >&2; die "PostgreSQL did not start: see $PG_LOG"; }
  pg_ensure_database "$PG_DATABASE"
  pg_service_roles
  info "postgresql: ready (pid $(pg_pid)), jdbc:postgresql://127.0.0.1:$PG_PORT/$PG_DATABASE (superuser $PG_USER: the infrastructure only), log $PG_LOG"
}

# pg_psql DATABASE [psql options]: psql as the bootstrap superuser on the local cluster.
pg_psql() {
  local database="$1"
  shift
  pg_as "$(pg_bin)/psql" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d "$database" -X "$@"
}

# pg_ensure_database NAME: creates the database when it is missing.
pg_ensure_database() {
  if ! pg_psql postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$1'" | grep -q 1; then
    pg_as "$(pg_bin)/createdb" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" "$1" \
      || die "Cannot create database $1: see $PG_LOG"
    info "created database $1"
  fi
}

# Every service's login and owner roles (idempotent; trust authentication here, so no passwords).
pg_service_roles() {
  local service
  for service in $PG_SERVICES; do
    pg_psql "$PG_DATABASE" -q -v service="$service" -f "$CRYO_HOME/infra/postgres/service-roles.sql" >> "$PG_LOG" 2>&1 \
      || { tail -n 20 "$PG_LOG" >&2; die "Cannot create the database roles of $service: see $PG_LOG"; }
  done
  info "postgresql: services log in as cryo_<service> and migrate as cryo_<service>_owner ($PG_SERVICES)"
  pg_catalog_role
}

# The local Iceberg catalog's database, owned by its own login role (no superuser).
pg_catalog_role() {
  pg_ensure_database "$LOCAL_CATALOG_DATABASE"
  pg_psql "$LOCAL_CATALOG_DATABASE" -q -v catalog_role="$CATALOG_USER" -f "$CRYO_HOME/infra/postgres/catalog-role.sql" >> "$PG_LOG" 2>&1 \
    || { tail -n 20 "$PG_LOG" >&2; die "Cannot create the catalog's role $CATALOG_USER: see $PG_LOG"; }
}

pg_pid() {
  head -n 1 "$(pg_data)/postmaster.pid" 2>/dev/null
}

pg_down() {
  if pg_external; then
    return 0
  fi
  if [ -n "$(pg_bin)" ] && pg_running; then
    step "Stopping PostgreSQL (pid $(pg_pid))"
    pg_as "$(pg_bin)/pg_ctl" -D "$(pg_data)" -m fast -w -t 60 stop >/dev/null \
      || warn "PostgreSQL did not stop cleanly: see $PG_LOG"
  fi
}

pg_status() {
  if pg_external; then
    printf '%-12s %-10s %-22s %-8s %s\n' postgresql "-" "$CRYO_DB_URL" "-" "(external)"
  elif [ -n "$(pg_bin)" ] && pg_running; then
    printf '%-12s %-10s %-22s %-8s %s\n' postgresql running "127.0.0.1:$PG_PORT" "$(pg_pid)" "$PG_LOG"
  else
    printf '%-12s %-10s %-22s %-8s %s\n' postgresql stopped "127.0.0.1:$PG_PORT" "-" "$PG_LOG"
  fi
}
