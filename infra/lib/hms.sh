# Local standalone Hive Metastore 4.0.1 from Maven Central jars, its catalog in the local PostgreSQL.
# Sourced by ./cryo.
#
# Not Derby: the metastore's lock-free commit (an alter_table that expects the old metadata_location,
# which Trino's Iceberg connector sends) compares TABLE_PARAMS.PARAM_VALUE, a CLOB in Derby's schema,
# and Derby cannot compare CLOBs; every such commit failed after ten retries and the client timed out.

HMS_VERSION=4.0.1
HMS_PORT="${CRYO_HMS_PORT:-9083}"
HMS_HEAP="${CRYO_HMS_HEAP:-512m}"
HMS_DIR="$RUNTIME/hms"
HMS_PID="$HMS_DIR/hms.pid"
HMS_LOG="$HMS_DIR/hms.log"
HMS_WAREHOUSE="$RUNTIME/hms-warehouse"
HMS_HOME="$HMS_DIR/home/apache-hive-metastore-$HMS_VERSION-bin"
# the name Cryo's services give the local metastore's catalog when it runs
HMS_CATALOG="${CRYO_HMS_CATALOG:-hms}"
# the metastore's own database in the local PostgreSQL, owned by its own login role (no superuser)
HMS_DATABASE="${CRYO_HMS_DATABASE:-cryo_hms}"
HMS_DB_USER="${CRYO_HMS_DB_USER:-cryo_hms}"

hms_uri() { echo "thrift://127.0.0.1:$HMS_PORT"; }

# The server's jars (with the Hadoop libraries a Hadoop installation would give it) and the schema
# scripts of its binary distribution, of which only PostgreSQL's are unpacked.
hms_fetch() {
  if fetched_for "$CRYO_HOME/infra/hms/pom.xml" "$HMS_DIR/libs" && [ -d "$HMS_HOME/scripts/metastore/upgrade/postgres" ]; then
    return 0
  fi
  step "Fetching the Hive Metastore $HMS_VERSION from Maven Central (about 230 MB, once)"
  rm -rf "$HMS_DIR/libs" "$HMS_DIR/home"
  mkdir -p "$HMS_DIR/libs" "$HMS_DIR/home"
  mvnw -f "$CRYO_HOME/infra/hms/pom.xml" dependency:copy-dependencies \
      -DoutputDirectory="$HMS_DIR/libs" -DincludeScope=runtime \
    || die "Cannot fetch the Hive Metastore jars: is Maven Central reachable?"
  mvnw -f "$CRYO_HOME/infra/hms/pom.xml" dependency:unpack \
      -Dartifact="org.apache.hive:hive-standalone-metastore-server:$HMS_VERSION:tar.gz:bin" \
      -DoutputDirectory="$HMS_DIR/home" -Dmdep.unpack.includes='*/scripts/metastore/upgrade/postgres/**' \
    || die "Cannot fetch the Hive Metastore's schema scripts: is Maven Central reachable?"
  mark_fetched "$CRYO_HOME/infra/hms/pom.xml" "$HMS_DIR/libs"
  info "$(ls "$HMS_DIR/libs" | wc -l) jars in $HMS_DIR/libs"
}

hms_configure() {
  mkdir -p "$HMS_DIR/conf" "$HMS_DIR/tmp" "$HMS_DIR/managed" "$HMS_WAREHOUSE"
  sed -e "s|@HMS_PORT@|$HMS_PORT|g" -e "s|@HMS_JDBC_URL@|$(hms_jdbc_url)|g" -e "s|@HMS_DB_USER@|$HMS_DB_USER|g" \
      -e "s|@HMS_WAREHOUSE@|file://$HMS_WAREHOUSE|g" -e "s|@HMS_MANAGED@|file://$HMS_DIR/managed|g" \
      "$CRYO_HOME/infra/hms/metastore-site.xml" > "$HMS_DIR/conf/metastore-site.xml"
  cp "$CRYO_HOME/infra/hms/log4j2.properties" "$HMS_DIR/conf/metastore-log4j2.properties"
}

HMS_JAVA_OPTIONS=(
  -Xmx"$HMS_HEAP"
  -Djava.io.tmpdir="$HMS_DIR/tmp"
  -Dlog4j.configurationFile="$HMS_DIR/conf/metastore-log4j2.properties"
)

hms_jdbc_url() { echo "jdbc:postgresql://127.0.0.1:$PG_PORT/$HMS_DATABASE"; }

# The metastore's database and role in the local PostgreSQL, and its tables (including the
# transaction and lock tables that Iceberg's commits use), created once by the schema tool from the
# distribution's PostgreSQL scripts.
hms_schema() {
  if pg_external; then
    die "Cannot start the local Hive Metastore: it keeps its catalog in the local PostgreSQL, and CRYO_DB_URL points elsewhere"
  fi
  pg_ensure_database "$HMS_DATABASE"
  pg_psql "$HMS_DATABASE" -q -v catalog_role="$HMS_DB_USER" -f "$CRYO_HOME/infra/postgres/catalog-role.sql" >> "$PG_LOG" 2>&1 \
    || { tail -n 20 "$PG_LOG" >&2; die "Cannot create the Hive Metastore's role $HMS_DB_USER: see $PG_LOG"; }
  if [ "$(pg_psql "$HMS_DATABASE" -tAc "SELECT to_regclass('public.\"VERSION\"') IS NOT NULL")" = t ]; then
    return 0
  fi
  step "Creating the Hive Metastore's schema (PostgreSQL database $HMS_DATABASE)"
  METASTORE_HOME="$HMS_HOME" java "${HMS_JAVA_OPTIONS[@]}" -cp "$HMS_DIR/conf:$HMS_DIR/libs/*" \
      org.apache.hadoop.hive.metastore.tools.schematool.MetastoreSchemaTool -initSchema -dbType postgres \
      > "$HMS_DIR/schema.log" 2>&1 \
    || { tail -n 20 "$HMS_DIR/schema.log" >&2; die "Cannot create the Hive Metastore's schema: see $HMS_DIR/schema.log"; }
}

hms_up() {
  if pid_alive "$HMS_PID"; then
    info "hms: already running (pid $(cat "$HMS_PID")) on $(hms_uri)"
    return 0
  fi
  if port_open 127.0.0.1 "$HMS_PORT"; then
    die "Cannot start the Hive Metastore: port $HMS_PORT is taken by another process (set CRYO_HMS_PORT)"
  fi
  hms_fetch
  hms_configure
  hms_schema
  step "Starting the Hive Metastore on $(hms_uri) (warehouse $HMS_WAREHOUSE)"
  nohup java "${HMS_JAVA_OPTIONS[@]}" -cp "$HMS_DIR/conf:$HMS_DIR/libs/*" org.apache.hadoop.hive.metastore.HiveMetaStore \
      >> "$HMS_LOG" 2>&1 < /dev/null &
  echo $! > "$HMS_PID"
  local started=$SECONDS
  if ! wait_for "Hive Metastore" 90 hms_ready; then
    tail -n 30 "$HMS_LOG" >&2
    die "The Hive Metastore did not open port $HMS_PORT within 90 s: see $HMS_LOG"
  fi
  info "hms: ready after $((SECONDS - started)) s (pid $(cat "$HMS_PID")), $(hms_uri), log $HMS_LOG"
}

hms_ready() {
  pid_alive "$HMS_PID" && port_open 127.0.0.1 "$HMS_PORT"
}

hms_down() {
  if pid_alive "$HMS_PID"; then
    step "Stopping the Hive Metastore (pid $(cat "$HMS_PID"))"
  fi
  stop_pid hms "$HMS_PID" 30
}

hms_status() {
  if pid_alive "$HMS_PID"; then
    printf '%-12s %-10s %-22s %-8s %s\n' hms running "127.0.0.1:$HMS_PORT" "$(cat "$HMS_PID")" "$HMS_LOG"
  elif [ -d "$HMS_DIR/libs" ]; then
    printf '%-12s %-10s %-22s %-8s %s\n' hms stopped "127.0.0.1:$HMS_PORT" "-" "$HMS_LOG"
  fi
}
