# Local Trino 476 (the server tarball from Maven Central) on the Temurin 25 JDK. Sourced by ./cryo.

TRINO_VERSION=476
TRINO_PORT="${CRYO_TRINO_PORT:-8080}"
TRINO_HEAP="${CRYO_TRINO_HEAP:-2G}"
TRINO_DIR="$RUNTIME/trino"
TRINO_HOME="$TRINO_DIR/trino-server-$TRINO_VERSION"
TRINO_PID="$TRINO_DIR/trino.pid"
TRINO_LOG="$TRINO_DIR/trino.log"

trino_java_home() {
  local candidate
  for candidate in "${CRYO_TRINO_JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25-jdk /usr/lib/jvm/java-25-openjdk-amd64; do
    if [ -n "$candidate" ] && [ -x "$candidate/bin/java" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

trino_fetch() {
  if [ -f "$TRINO_HOME/.complete" ]; then
    return 0
  fi
  mkdir -p "$TRINO_DIR/download"
  if [ ! -f "$TRINO_DIR/download/trino-server-$TRINO_VERSION.tar.gz" ]; then
    step "Fetching the Trino $TRINO_VERSION server from Maven Central (821 MB, once)"
    mvnw dependency:copy -Dartifact="io.trino:trino-server:$TRINO_VERSION:tar.gz" \
        -DoutputDirectory="$TRINO_DIR/download" || die "Cannot fetch the Trino server: is Maven Central reachable?"
  fi
  step "Unpacking Trino (keeping only the Iceberg connector)"
  rm -rf "$TRINO_HOME"
  tar xzf "$TRINO_DIR/download/trino-server-$TRINO_VERSION.tar.gz" -C "$TRINO_DIR" || die "Cannot unpack the Trino server"
  find "$TRINO_HOME/plugin" -mindepth 1 -maxdepth 1 -type d ! -name iceberg -exec rm -rf {} +
  touch "$TRINO_HOME/.complete"
}

render() {
  sed -e "s|@TRINO_PORT@|$TRINO_PORT|g" -e "s|@DATA_DIR@|$TRINO_DIR/data|g" -e "s|@TRINO_HEAP@|$TRINO_HEAP|g" \
      -e "s|@CATALOG@|$LOCAL_CATALOG|g" \
      -e "s|@CATALOG_JDBC_URL@|$(local_catalog_jdbc_url)|g" -e "s|@DB_USER@|$CATALOG_USER|g" \
      -e "s|@DB_PASSWORD@||g" -e "s|@WAREHOUSE_URI@|file://$WAREHOUSE_DIR|g" "$1"
}

trino_configure() {
  local etc="$TRINO_DIR/etc"
  mkdir -p "$etc/catalog" "$TRINO_DIR/data/tmp"
  render "$CRYO_HOME/infra/trino/config.properties" > "$etc/config.properties"
  render "$CRYO_HOME/infra/trino/node.properties" > "$etc/node.properties"
  render "$CRYO_HOME/infra/trino/jvm.config" > "$etc/jvm.config"
  cp "$CRYO_HOME/infra/trino/log.properties" "$etc/log.properties"
  render "$CRYO_HOME/infra/trino/catalog.properties" > "$etc/catalog/$LOCAL_CATALOG.properties"
  rm -f "$etc/catalog/$HMS_CATALOG.properties"
  if hms_ready; then
    sed -e "s|@HMS_URI@|$(hms_uri)|g" "$CRYO_HOME/infra/trino/hms-catalog.properties" > "$etc/catalog/$HMS_CATALOG.properties"
  fi
}

# trino_query SQL: runs a statement through Trino's HTTP protocol; prints the final state.
trino_query() {
  python3 - "$TRINO_PORT" "$1" <<'PY'
import json, sys, time, urllib.request
port, sql = sys.argv[1], sys.argv[2]
request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/statement", data=sql.encode(),
                                 headers={"X-Trino-User": "cryo-infra", "X-Trino-Source": "cryo-infra"})
try:
    body = json.load(urllib.request.urlopen(request, timeout=10))
    while "nextUri" in body:
        time.sleep(0.1)
        body = json.load(urllib.request.urlopen(body["nextUri"], timeout=10))
except Exception as error:
    print(f"ERROR {error}")
    sys.exit(1)
state = body.get("stats", {}).get("state", "?")
if "error" in body:
    print(f"FAILED {body['error'].get('message')}")
    sys.exit(1)
print(state)
PY
}

trino_up() {
  if pid_alive "$TRINO_PID"; then
    info "trino: already running (pid $(cat "$TRINO_PID")) on 127.0.0.1:$TRINO_PORT"
    return 0
  fi
  if port_open 127.0.0.1 "$TRINO_PORT"; then
    die "Cannot start Trino: port $TRINO_PORT is taken by another process (set CRYO_TRINO_PORT)"
  fi
  local java_home
  java_home=$(trino_java_home) || die "Cannot start Trino $TRINO_VERSION: it needs Java 24+; install a Temurin 25 JDK or set CRYO_TRINO_JAVA_HOME"
  trino_fetch
  local_catalog_init
  trino_configure
  step "Starting Trino on 127.0.0.1:$TRINO_PORT (Java $("$java_home/bin/java" -version 2>&1 | head -n 1 | cut -d'"' -f2))"
  JAVA_HOME="$java_home" PATH="$java_home/bin:$PATH" nohup "$TRINO_HOME/bin/launcher" run \
      --etc-dir="$TRINO_DIR/etc" --data-dir="$TRINO_DIR/data" >> "$TRINO_LOG" 2>&1 < /dev/null &
  echo $! > "$TRINO_PID"
  local started=$SECONDS
  if ! wait_for "Trino" 180 trino_ready; then
    tail -n 30 "$TRINO_LOG" >&2
    die "Trino did not answer a query within 180 s: see $TRINO_LOG"
  fi
  local catalogs="$LOCAL_CATALOG"
  [ -f "$TRINO_DIR/etc/catalog/$HMS_CATALOG.properties" ] && catalogs="$LOCAL_CATALOG and $HMS_CATALOG"
  info "trino: ready after $((SECONDS - started)) s (pid $(cat "$TRINO_PID")), catalog $catalogs, log $TRINO_LOG"
}

# Ready means a query on the catalog runs: /v1/info says started before the first query can be scheduled.
trino_ready() {
  pid_alive "$TRINO_PID" || return 1
  port_open 127.0.0.1 "$TRINO_PORT" || return 1
  trino_query "SELECT count(*) FROM $LOCAL_CATALOG.information_schema.schemata" 2>/dev/null | grep -q FINISHED
}

trino_down() {
  if pid_alive "$TRINO_PID"; then
    step "Stopping Trino (pid $(cat "$TRINO_PID"))"
  fi
  stop_pid trino "$TRINO_PID" 30
}

trino_status() {
  if pid_alive "$TRINO_PID"; then
    printf '%-12s %-10s %-22s %-8s %s\n' trino running "127.0.0.1:$TRINO_PORT" "$(cat "$TRINO_PID")" "$TRINO_LOG"
  elif [ -d "$TRINO_HOME" ]; then
    printf '%-12s %-10s %-22s %-8s %s\n' trino stopped "127.0.0.1:$TRINO_PORT" "-" "$TRINO_LOG"
  fi
}
