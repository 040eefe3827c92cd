# Cryo's services, the console and the demo's live writer as local processes. Sourced by ./cryo.
#
# Each service runs as `java -jar <app>/quarkus-run.jar` from a copy of its module's
# target/quarkus-app under $RUNTIME/services/<name>/app (hard links, so it costs no disk): a
# rebuild of the module while Cryo runs then never swaps jars under a running service.

SERVICES_DIR="$RUNTIME/services"
# The order they start in and the reverse of the order they stop in.
CRYO_SERVICES="scanner scorer planner governor executor audit console"

service_module() {
  case "$1" in
    console) echo console ;;
    *) echo "$1-svc" ;;
  esac
}

# service_port NAME: CRYO_<NAME>_PORT, else the port of ARCHITECTURE.md.
service_port() {
  local variable default
  variable="CRYO_$(printf '%s' "$1" | tr '[:lower:]' '[:upper:]')_PORT"
  case "$1" in
    console) default=8180 ;; scanner) default=8181 ;; scorer) default=8182 ;; planner) default=8183 ;;
    governor) default=8184 ;; executor) default=8185 ;; audit) default=8186 ;;
    *) die "unknown service: $1" ;;
  esac
  echo "${!variable:-$default}"
}

service_url() { echo "http://127.0.0.1:$(service_port "$1")"; }
service_dir() { echo "$SERVICES_DIR/$1"; }
service_pidfile() { echo "$SERVICES_DIR/$1/$1.pid"; }
service_log() { echo "$SERVICES_DIR/$1/$1.log"; }

# Heaps small enough for a laptop running all seven beside Kafka and PostgreSQL.
service_heap() {
  case "$1" in
    scanner|executor) echo 512m ;;
    console) echo 256m ;;
    *) echo 384m ;;
  esac
}

# service_jvm_flags NAME: the JVM flags of a service. By default one GC thread and the C1 compiler:
# they start a service in half the CPU time, which is what a laptop (or a 2-core CI box) runs short of.
# CRYO_SERVICE_JAVA_OPTS replaces them for every service, CRYO_<NAME>_JAVA_OPTS (e.g.
# CRYO_EXECUTOR_JAVA_OPTS) for one. A service out of memory exits (./cryo status shows it stopped;
# ./cryo up restarts it from the committed offsets): one that went on once skipped the records of a
# poll that failed (platform README).
service_jvm_flags() {
  local own="CRYO_$(echo "${1:-}" | tr '[:lower:]' '[:upper:]')_JAVA_OPTS"
  if [ -n "${1:-}" ] && [ -n "${!own:-}" ]; then
    echo "${!own}"
  else
    echo "${CRYO_SERVICE_JAVA_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError}"
  fi
}

service_artifact() {
  echo "$CRYO_HOME/$(service_module "$1")/target/quarkus-app/quarkus-run.jar"
}

# http_status URL: the HTTP status code, or 000 when nothing answers.
http_status() {
  if command -v curl >/dev/null 2>&1; then
    curl -s -o /dev/null -m 5 -w '%{http_code}' "$1" 2>/dev/null || true
    return 0
  fi
  # no curl: HTTP/1.0 by hand on bash's /dev/tcp
  local rest="${1#http://}" hostport path status
  hostport="${rest%%/*}"; path="/${rest#*/}"
  status=$(timeout 5 bash -c "exec 3<>/dev/tcp/${hostport%:*}/${hostport#*:}; printf 'GET %s HTTP/1.0\r\nHost: %s\r\n\r\n' '$path' '$hostport' >&3; head -n 1 <&3" 2>/dev/null | awk '{print $2}')
  echo "${status:-000}"
}

service_ready() { [ "$(http_status "$(service_url "$1")/q/health/ready")" = "200" ]; }

# service_health NAME: UP, DOWN (answers, not ready) or - (no answer).
service_health() {
  case "$(http_status "$(service_url "$1")/q/health/ready")" in
    200) echo UP ;;
    000) echo - ;;
    *) echo DOWN ;;
  esac
}

service_available() {
  [ -d "$CRYO_HOME/$(service_module "$1")" ]
}

# service_stage NAME: copies the built app next to the runtime unless the staged copy is current.
service_stage() {
  local name="$1" source target
  source="$CRYO_HOME/$(service_module "$name")/target/quarkus-app"
  target="$(service_dir "$name")/app"
  [ -f "$source/quarkus-run.jar" ] || die "Cannot start $name: $source/quarkus-run.jar is missing; run ./cryo demo without --no-build"
  if [ -f "$target/quarkus-run.jar" ] && [ ! "$source/quarkus-run.jar" -nt "$target/quarkus-run.jar" ] \
      && [ -z "$(find "$source" -newer "$target/quarkus-run.jar" -type f -print -quit)" ]; then
    return 0
  fi
  rm -rf "$target.new"
  cp -al "$source" "$target.new" 2>/dev/null || cp -a "$source" "$target.new" || die "Cannot copy $source to $target.new"
  rm -rf "$target"
  mv "$target.new" "$target"
}

# The local catalog that scanner and executor maintain, and the local Hive Metastore's catalog
# 'hms' when it runs (infra up --with hms); more catalogs come from the user's config.
catalog_properties() {
  printf '%s\n' \
    "-Dcryo.catalogs.$LOCAL_CATALOG.type=jdbc" \
    "-Dcryo.catalogs.$LOCAL_CATALOG.uri=$(local_catalog_jdbc_url)" \
    "-Dcryo.catalogs.$LOCAL_CATALOG.jdbc.user=$CATALOG_USER" \
    "-Dcryo.catalogs.$LOCAL_CATALOG.jdbc.schema-version=V1" \
    "-Dcryo.catalogs.$LOCAL_CATALOG.warehouse=file://$WAREHOUSE_DIR"
  if hms_ready; then
    printf '%s\n' \
      "-Dcryo.catalogs.$HMS_CATALOG.type=hive" \
      "-Dcryo.catalogs.$HMS_CATALOG.uri=$(hms_uri)" \
      "-Dcryo.catalogs.$HMS_CATALOG.warehouse=file://$HMS_WAREHOUSE"
  fi
}

# service_properties NAME: the -D settings of one service, one per line.
service_properties() {
  local name="$1"
  echo "-Xmx$(service_heap "$name")"
  service_jvm_flags "$name" | tr ' ' '\n' | sed '/^$/d'
  echo "-Dquarkus.http.host=127.0.0.1"
  if [ -n "${CRYO_CONFIG:-}" ]; then
    echo "-Dquarkus.config.locations=$(cd "$(dirname "$CRYO_CONFIG")" && pwd)/$(basename "$CRYO_CONFIG")"
  fi
  case "$name" in
    scanner)
      catalog_properties
      # the demo's orphans (and their removal) show within minutes; a real fleet lists daily
      [ "${CRYO_MODE:-}" = demo ] && echo "-Dcryo.scanner.orphan-listing-interval=PT5M"
      ;;
    executor)
      catalog_properties
      echo "-Dcryo.catalogs.$LOCAL_CATALOG.io.manifest.cache-enabled=true"
      ;;
    governor)
      echo "-Dcryo.governor.default-engine=${CRYO_ENGINE:-native}"
      # a demo shows repairs within minutes; production keeps the 10-minute default between jobs of a table
      [ "${CRYO_MODE:-}" = demo ] && echo "-Dcryo.governor.cooldown=PT2M"
      ;;
  esac
  return 0
}

# service_environment NAME: the environment of one service, one VAR=value per line.
service_environment() {
  local name="$1" other upper
  echo "KAFKA_BOOTSTRAP_SERVERS=$(kafka_bootstrap)"
  # each service its own principal on the local broker (contracts' KafkaPrincipals); the console has no Kafka
  [ "$name" = console ] || kafka_client_environment "cryo-$name"
  if pg_external; then
    echo "CRYO_DB_URL=$CRYO_DB_URL"
  else
    echo "CRYO_DB_URL=jdbc:postgresql://127.0.0.1:$PG_PORT/$PG_DATABASE"
  fi
  echo "CRYO_SECURITY_TOKENS=$(tokens_get CRYO_SECURITY_TOKENS)"
  upper=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')
  echo "CRYO_${upper}_PORT=$(service_port "$name")"
  case "$name" in
    console)
      for other in scanner scorer planner governor executor audit; do
        echo "CRYO_$(printf '%s' "$other" | tr '[:lower:]' '[:upper:]')_URL=$(service_url "$other")"
      done
      echo "CRYO_CONSOLE_SESSION_KEY=$(tokens_get CRYO_CONSOLE_SESSION_KEY)"
      # the console's own reads, for a Cryo that closes them (cryo.security.open-reads=false)
      echo "CRYO_CONSOLE_READ_TOKEN=$(tokens_get CRYO_VIEWER_TOKEN)"
      ;;
    governor)
      # the governor reads Trino's load before it admits a job there
      if [ "${CRYO_ENGINE:-native}" = trino ] || local_engine_ready trino; then
        echo "CRYO_GOVERNOR_TRINO_JDBC_URL=${CRYO_GOVERNOR_TRINO_JDBC_URL:-jdbc:trino://127.0.0.1:$TRINO_PORT}"
      fi
      ;;
    executor)
      # engines started by ./cryo infra up --with trino/spark are the executor's too (a policy or
      # cryo.governor.default-engine sends jobs there); the caller's own settings win
      if local_engine_ready trino; then
        echo "CRYO_EXECUTOR_TRINO_JDBC_URL=${CRYO_EXECUTOR_TRINO_JDBC_URL:-jdbc:trino://127.0.0.1:$TRINO_PORT}"
      fi
      if local_engine_ready spark; then
        echo "CRYO_EXECUTOR_SPARK_REMOTE=${CRYO_EXECUTOR_SPARK_REMOTE:-sc://127.0.0.1:$SPARK_PORT}"
      fi
      ;;
  esac
}

# local_engine_ready trino|spark: whether ./cryo infra up started that engine and it answers
# (false where its library is not loaded, as in the fault suite's stack.sh)
local_engine_ready() {
  declare -F "${1}_ready" >/dev/null 2>&1 && "${1}_ready"
}

# service_start NAME: starts it in the background (no wait); a running one is left alone.
service_start() {
  local name="$1" pidfile log port
  pidfile=$(service_pidfile "$name"); log=$(service_log "$name"); port=$(service_port "$name")
  mkdir -p "$(service_dir "$name")"
  if pid_alive "$pidfile"; then
    info "$name: already running (pid $(cat "$pidfile")) on 127.0.0.1:$port"
    return 0
  fi
  if port_open 127.0.0.1 "$port"; then
    die "Cannot start $name: port $port is taken by another process. Stop it, or move $name with CRYO_$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')_PORT=<port>."
  fi
  service_stage "$name"
  local -a environment properties
  mapfile -t environment < <(service_environment "$name")
  mapfile -t properties < <(service_properties "$name")
  printf '\n=== %s starting %s\n' "$(date -u +%FT%TZ)" "$name" >> "$log"
  (cd "$(service_dir "$name")" && exec env "${environment[@]}" nohup java "${properties[@]}" -jar app/quarkus-run.jar \
      >> "$log" 2>&1 < /dev/null) &
  echo $! > "$pidfile"
  info "$name: starting on 127.0.0.1:$port (pid $!, log $log)"
}

# service_await NAME SECONDS: waits for /q/health/ready, or fails with the end of its log.
service_await() {
  local name="$1" seconds="$2" started=$SECONDS pidfile
  pidfile=$(service_pidfile "$name")
  until service_ready "$name"; do
    if ! pid_alive "$pidfile"; then
      tail -n 25 "$(service_log "$name")" >&2
      die "$name stopped while starting: see $(service_log "$name")"
    fi
    if [ $((SECONDS - started)) -ge "$seconds" ]; then
      tail -n 25 "$(service_log "$name")" >&2
      die "$name was not ready within ${seconds}s: see $(service_log "$name")"
    fi
    sleep 1
  done
}

service_stop() {
  local name="$1" pidfile
  pidfile=$(service_pidfile "$name")
  if pid_alive "$pidfile"; then
    step "Stopping $name (pid $(cat "$pidfile"))"
  fi
  stop_pid "$name" "$pidfile" 30
}

service_status() {
  local name="$1" pidfile state pid health
  pidfile=$(service_pidfile "$name")
  if ! service_available "$name"; then
    printf '%-12s %-10s %-22s %-8s %-7s %s\n' "$name" "absent" "-" "-" "-" "(module $(service_module "$name")/ not in this checkout)"
    return 0
  fi
  if pid_alive "$pidfile"; then
    state=running; pid=$(cat "$pidfile"); health=$(service_health "$name")
  else
    state=stopped; pid=-; health=-
  fi
  printf '%-12s %-10s %-22s %-8s %-7s %s\n' "$name" "$state" "127.0.0.1:$(service_port "$name")" "$pid" "$health" "$(service_log "$name")"
}

# --- the demo's live writer -------------------------------------------------------------------

WRITER_DIR="$SERVICES_DIR/writer"
WRITER_PID="$WRITER_DIR/writer.pid"
WRITER_LOG="$WRITER_DIR/writer.log"

demo_jar() { module_jar demo; }
cli_jar() { module_jar cli; }

# The demo tool: a short-lived JVM; C1 alone halves its CPU time.
demo_tool() {
  java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xmx512m -jar "$(demo_jar)" "$@"
}

demo_catalog_options() {
  printf '%s\n' --catalog "$LOCAL_CATALOG" --catalog-uri "$(local_catalog_jdbc_url)" --catalog-user "$CATALOG_USER" \
    --warehouse "$WAREHOUSE_DIR"
}

writer_start() {
  mkdir -p "$WRITER_DIR"
  if pid_alive "$WRITER_PID"; then
    info "writer: already running (pid $(cat "$WRITER_PID"))"
    return 0
  fi
  local -a options
  mapfile -t options < <(demo_catalog_options)
  printf '\n=== %s starting the live writer\n' "$(date -u +%FT%TZ)" >> "$WRITER_LOG"
  local -a reporter
  mapfile -t reporter < <(kafka_client_environment cryo-reporter)
  env ${reporter[@]+"${reporter[@]}"} nohup java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xmx256m -jar "$(demo_jar)" \
      write "${options[@]}" --kafka "$(kafka_bootstrap)" >> "$WRITER_LOG" 2>&1 < /dev/null &
  echo $! > "$WRITER_PID"
  info "writer: started (pid $!, log $WRITER_LOG)"
}

writer_stop() {
  if pid_alive "$WRITER_PID"; then
    step "Stopping the live writer (pid $(cat "$WRITER_PID"))"
  fi
  stop_pid writer "$WRITER_PID" 40
}

writer_status() {
  if pid_alive "$WRITER_PID"; then
    printf '%-12s %-10s %-22s %-8s %-7s %s\n' writer running "-" "$(cat "$WRITER_PID")" "-" "$WRITER_LOG"
  else
    printf '%-12s %-10s %-22s %-8s %-7s %s\n' writer stopped "-" "-" "-" "$WRITER_LOG"
  fi
}

# --- API tokens ---------------------------------------------------------------------------------

TOKENS_FILE="$RUNTIME/tokens.env"

# tokens_init: one operator and one viewer token at first start, random, printed once.
tokens_init() {
  if [ -f "$TOKENS_FILE" ]; then
    info "API tokens: $TOKENS_FILE (operator and viewer)"
    return 0
  fi
  local operator viewer session
  operator=$(random_hex 24)
  viewer=$(random_hex 24)
  session=$(head -c 32 /dev/urandom | base64 | tr -d '\n')
  (
    umask 077
    cat > "$TOKENS_FILE" <<TOKENS
# Cryo's API tokens on this machine, generated by ./cryo at its first start. Keep them secret.
# The services read CRYO_SECURITY_TOKENS; ./cryo's commands send CRYO_OPERATOR_TOKEN.
CRYO_OPERATOR_TOKEN=$operator
CRYO_VIEWER_TOKEN=$viewer
CRYO_SECURITY_TOKENS=operator=operator:$operator,viewer=viewer:$viewer
CRYO_CONSOLE_SESSION_KEY=$session
TOKENS
  )
  chmod 600 "$TOKENS_FILE"
  step "Generated the API tokens (shown this once; kept in $TOKENS_FILE, mode 600)"
  info "operator: $operator"
  info "viewer:   $viewer"
  info "Changes (fix now, pause, policies, replays) need the operator token: ./cryo's commands send it,"
  info "the console asks for it at sign-in, and curl takes  -H \"Authorization: Bearer \$CRYO_TOKEN\""
  info "after  export CRYO_TOKEN=\$(sed -n 's/^CRYO_OPERATOR_TOKEN=//p' $TOKENS_FILE)"
}

tokens_get() {
  [ -f "$TOKENS_FILE" ] || die "Cannot read $TOKENS_FILE: start Cryo with ./cryo demo or ./cryo up"
  sed -n "s/^$1=//p" "$TOKENS_FILE" | head -n 1
}
