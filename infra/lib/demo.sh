# ./cryo demo, up, down and status: the whole of Cryo on this machine. Sourced by ./cryo.

# Modules whose jars ./cryo runs, and the libraries they are built from.
RUNNABLE_MODULES="scanner-svc scorer-svc planner-svc governor-svc executor-svc audit-svc console cli demo"
LIBRARY_MODULES="contracts platform iceberg-support iceberg-fixtures engine-sql engine-native scoring metadata-scan commit-reporter test-support"
# The demo's namespace in the local catalog.
DEMO_NAMESPACE="${CRYO_DEMO_NAMESPACE:-demo}"
# the fleet's table that the demo also creates through the Hive Metastore when it runs (--with hms)
DEMO_HMS_TABLE=trips
# Every consumer group of Cryo's services (the audit has one per topic family, see audit-svc AuditTopics).
CRYO_GROUPS="cryo-scanner cryo-scorer cryo-planner cryo-governor cryo-executor cryo-audit-changes cryo-audit-scans
  cryo-audit-grades cryo-audit-plans cryo-audit-jobs cryo-audit-dead-letters"

module_artifact() {
  case "$1" in
    cli) cli_jar ;;
    demo) demo_jar ;;
    *) echo "$CRYO_HOME/$1/target/quarkus-app/quarkus-run.jar" ;;
  esac
}

# module_stale MODULE: true when its artifact is missing or older than its sources (or the libraries').
module_stale() {
  local module="$1" artifact library
  artifact=$(module_artifact "$module")
  [ -n "$artifact" ] && [ -f "$artifact" ] || return 0
  if [ "$module" = cli ] || [ "$module" = demo ]; then
    [ -d "$CRYO_HOME/$module/target/lib" ] || return 0
  fi
  [ -n "$(find "$CRYO_HOME/$module/src/main" "$CRYO_HOME/$module/pom.xml" "$CRYO_HOME/pom.xml" -newer "$artifact" -print -quit 2>/dev/null)" ] && return 0
  for library in $LIBRARY_MODULES; do
    [ -d "$CRYO_HOME/$library/src/main" ] || continue
    [ -n "$(find "$CRYO_HOME/$library/src/main" "$CRYO_HOME/$library/pom.xml" -newer "$artifact" -print -quit 2>/dev/null)" ] && return 0
  done
  return 1
}

# ensure_built [--no-build]: builds the runnable modules that are missing or stale, in one Maven run.
ensure_built() {
  local no_build="${1:-}" module stale=() missing=()
  for module in $RUNNABLE_MODULES; do
    [ -d "$CRYO_HOME/$module" ] || continue
    if module_stale "$module"; then
      stale+=("$module")
      [ -f "$(module_artifact "$module")" ] || missing+=("$module")
    fi
  done
  if [ ${#stale[@]} -eq 0 ]; then
    info "build: every module is up to date"
    return 0
  fi
  if [ "$no_build" = "--no-build" ]; then
    if [ ${#missing[@]} -gt 0 ]; then
      die "Cannot start without building: ${missing[*]} not built. Run without --no-build, or ./mvnw package -DskipTests first."
    fi
    warn "not rebuilding ${stale[*]} (--no-build): their sources changed since the last build"
    return 0
  fi
  local log="$RUNTIME/build.log" list started=$SECONDS
  list=$(IFS=,; echo "${stale[*]}")
  step "Building ${stale[*]} and what they need (./mvnw package, tests skipped; log $log)"
  info "a first build downloads Maven's dependencies (a few hundred MB) and takes minutes"
  set +e
  "$CRYO_HOME/mvnw" -B package -DskipTests -Dmaven.test.skip=true -pl "$list" -am 2>&1 | tee "$log" | {
    local line downloads=0
    while IFS= read -r line; do
      case "$line" in
        *"[INFO] Building Cryo ::"*) info "building${line#*Building Cryo ::}" ;;
        *"Downloaded from"*)
          downloads=$((downloads + 1))
          [ $((downloads % 100)) -eq 0 ] && info "fetched $downloads artifacts from Maven Central so far"
          ;;
        *"[ERROR]"*) printf '    %s\n' "$line" ;;
      esac
    done
  }
  local status=${PIPESTATUS[0]}
  set -e
  [ "$status" -eq 0 ] || die "Cannot build ${stale[*]}: see $log"
  info "built in $((SECONDS - started)) s"
}

# first_start_offsets: consumer groups that never ran start at the end of Cryo's topics (see demo's FirstStartOffsets).
first_start_offsets() {
  local -a groups=()
  local group
  for group in $CRYO_GROUPS; do
    groups+=(--group "$group")
  done
  as_kafka_principal cryo-admin demo_tool first-start --kafka "$(kafka_bootstrap)" "${groups[@]}" | sed 's/^/    /' \
    || die "Cannot set the first-start offsets of Cryo's consumer groups on $(kafka_bootstrap)"
}

cryo_services() {
  local name
  for name in $CRYO_SERVICES; do
    if service_available "$name"; then
      echo "$name"
    fi
  done
}

# services_up: starts every service that is down, then waits until each is ready.
services_start() {
  step "Starting Cryo's services"
  local name
  if ! service_available console; then
    info "console: not built yet (no console/ module in this checkout); starting the others"
  fi
  for name in $(cryo_services); do
    service_start "$name"
  done
}

services_await() {
  local name started=$SECONDS
  for name in $(cryo_services); do
    service_await "$name" "${CRYO_START_TIMEOUT:-240}"
    info "$name: ready at $(service_url "$name") ($((SECONDS - started)) s)"
  done
}

# parse_with COMPONENT: what --with of demo and up takes.
parse_with() {
  [ "$1" = hms ] || die "Cannot start '$1' with the services: --with takes hms (engines come with --engine)"
  echo yes
}

parse_engine() {
  case "$1" in
    native|trino|spark) echo "$1" ;;
    *) die "Cannot use engine '$1': --engine takes native, trino or spark" ;;
  esac
}

# cryo_up MODE [options]: everything but the demo's fleet and writer (MODE demo adds those in cryo_demo).
cryo_start() {
  local no_build="$1"
  mkdir -p "$RUNTIME" "$SERVICES_DIR"
  java -version >/dev/null 2>&1 || die "Cannot find java: install Java 17 or newer"
  step "Checking what needs building"
  ensure_built "$no_build"
  BUILD_DONE_AT=$SECONDS
  pg_up
  kafka_up
  kafka_topics
  # the metastore before the engine: Trino gets its catalog only when it runs as Trino starts
  [ "${CRYO_WITH_HMS:-}" = yes ] && hms_up
  case "${CRYO_ENGINE:-native}" in
    trino) trino_up ;;
    spark) spark_up ;;
  esac
  local_catalog_init
  tokens_init
  echo "${CRYO_ENGINE:-native}" > "$RUNTIME/engine"
  step "Preparing the consumer groups' first start"
  first_start_offsets
  if [ "${CRYO_MODE:-up}" = demo ]; then
    demo_fleet_create
  fi
  services_start
}

# The fleet is written before the services start: a table that Cryo maintains while the demo is
# still writing its history (page_views' 105 commits, then their backdating) would get Cryo's
# commits in the middle of it, and its backdated history would be wrong.
demo_fleet_create() {
  step "Creating the demo fleet in $LOCAL_CATALOG.$DEMO_NAMESPACE (tables that exist are kept)"
  local -a options
  mapfile -t options < <(demo_catalog_options)
  demo_tool create "${options[@]}" --namespace "$DEMO_NAMESPACE" || die "Cannot create the demo fleet"
  demo_tool list | cut -f1 | sed "s/^/$LOCAL_CATALOG.$DEMO_NAMESPACE./" > "$RUNTIME/demo-tables"
  if hms_ready; then
    step "Creating $HMS_CATALOG.$DEMO_NAMESPACE.$DEMO_HMS_TABLE through the Hive Metastore"
    demo_tool create --catalog "$HMS_CATALOG" --catalog-type hive --catalog-uri "$(hms_uri)" --warehouse "$HMS_WAREHOUSE" \
        --namespace "$DEMO_NAMESPACE" --table "$DEMO_HMS_TABLE" || die "Cannot create the demo table in the Hive Metastore"
    echo "$HMS_CATALOG.$DEMO_NAMESPACE.$DEMO_HMS_TABLE" >> "$RUNTIME/demo-tables"
  fi
}

cryo_up() {
  local no_build=""
  CRYO_ENGINE=$(cat "$RUNTIME/engine" 2>/dev/null || echo native)
  while [ $# -gt 0 ]; do
    case "$1" in
      --engine) CRYO_ENGINE=$(parse_engine "${2:-}"); shift 2 ;;
      --engine=*) CRYO_ENGINE=$(parse_engine "${1#--engine=}"); shift ;;
      --no-build) no_build=--no-build; shift ;;
      --config) CRYO_CONFIG="$2"; shift 2 ;;
      --with) CRYO_WITH_HMS=$(parse_with "${2:-}"); shift 2 ;;
      --with=*) CRYO_WITH_HMS=$(parse_with "${1#--with=}"); shift ;;
      *) die "unknown option for up: $1" ;;
    esac
  done
  export CRYO_ENGINE CRYO_CONFIG CRYO_WITH_HMS
  CRYO_MODE=up
  cryo_start "$no_build"
  services_await
  echo
  if service_available console; then
    step "${GREEN}console ready at $(service_url console)${RESET}"
  fi
  info "API tokens: $TOKENS_FILE; try ./cryo tables, ./cryo status; stop with ./cryo down"
}

# demo_graded: how many of the fleet's tables (catalog.namespace.table, one per line) the scorer has graded.
demo_graded() {
  local answer="" ids catalog
  ids=$(cat "$RUNTIME/demo-tables" 2>/dev/null)
  for catalog in $(printf '%s\n' $ids | cut -d. -f1 | sort -u); do
    answer+=$(curl -s -m 10 "$(service_url scorer)/api/v1/tables?catalog=$catalog&namespace=$DEMO_NAMESPACE&limit=1000" 2>/dev/null || true)
  done
  local count=0 table
  for table in $ids; do
    case "$answer" in
      *"\"table\":\"$table\""*) count=$((count + 1)) ;;
    esac
  done
  echo "$count"
}

cryo_demo() {
  local no_build="" strict="" grade_timeout=300
  CRYO_ENGINE=$(cat "$RUNTIME/engine" 2>/dev/null || echo native)
  while [ $# -gt 0 ]; do
    case "$1" in
      --engine) CRYO_ENGINE=$(parse_engine "${2:-}"); shift 2 ;;
      --engine=*) CRYO_ENGINE=$(parse_engine "${1#--engine=}"); shift ;;
      --no-build) no_build=--no-build; shift ;;
      --ci) strict=yes; shift ;;
      --grade-timeout) grade_timeout="$2"; shift 2 ;;
      --config) CRYO_CONFIG="$2"; shift 2 ;;
      --with) CRYO_WITH_HMS=$(parse_with "${2:-}"); shift 2 ;;
      --with=*) CRYO_WITH_HMS=$(parse_with "${1#--with=}"); shift ;;
      *) die "unknown option for demo: $1" ;;
    esac
  done
  export CRYO_ENGINE CRYO_CONFIG CRYO_WITH_HMS
  CRYO_MODE=demo
  local started=$SECONDS
  cryo_start "$no_build"

  step "Waiting for the services"
  services_await
  step "Starting the live writer (streaming appends, CDC upserts and batches, through the commit reporter)"
  writer_start
  # orphans are counted from a storage listing (daily in production); ask for one of the orphan table now
  curl -s -o /dev/null -m 10 -X POST -H "Authorization: Bearer $(tokens_get CRYO_OPERATOR_TOKEN)" \
      "$(service_url scanner)/api/v1/tables/$LOCAL_CATALOG.$DEMO_NAMESPACE.audit_events/orphan-listing" || true

  echo
  if service_available console; then
    step "${GREEN}console ready at $(service_url console)${RESET}  ($((SECONDS - BUILD_DONE_AT)) s after the build)"
  else
    step "services ready ($((SECONDS - BUILD_DONE_AT)) s after the build); console not built yet"
  fi

  step "Waiting for every demo table's first grade (the scanner's watcher finds new tables within seconds)"
  local total graded last=-1 deadline=$((SECONDS + grade_timeout))
  total=$(wc -l < "$RUNTIME/demo-tables" | tr -d ' ')
  while true; do
    graded=$(demo_graded)
    if [ "$graded" != "$last" ]; then
      info "$graded of $total demo tables graded"
      last=$graded
    fi
    [ "$graded" -ge "$total" ] && break
    if [ "$SECONDS" -ge "$deadline" ]; then
      warn "not every demo table has a grade after ${grade_timeout}s: see ./cryo status and $SERVICES_DIR/*/*.log"
      [ -n "$strict" ] && exit 2
      break
    fi
    sleep 2
  done
  if [ "$graded" -ge "$total" ]; then
    step "${GREEN}every demo table has a grade${RESET}  ($((SECONDS - BUILD_DONE_AT)) s after the build, $((SECONDS - started)) s in all)"
  fi
  echo
  cryo_cli tables --catalog "$LOCAL_CATALOG" --namespace "$DEMO_NAMESPACE" || true
  echo
  cat <<NEXT
${BOLD}Next${RESET}
    console        $(service_available console && service_url console || echo "(not built yet)")
    tokens         $TOKENS_FILE (the console's sign-in takes the operator token)
    a table        ./cryo grade $LOCAL_CATALOG.$DEMO_NAMESPACE.page_views
    its plan       ./cryo plan $LOCAL_CATALOG.$DEMO_NAMESPACE.page_views --engine trino
    fix it now     ./cryo fix $LOCAL_CATALOG.$DEMO_NAMESPACE.trips
    the queue      ./cryo jobs
    everything     ./cryo status
    stop           ./cryo down
NEXT
}

cryo_down() {
  local keep_infra=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --keep-infra) keep_infra=yes; shift ;;
      *) die "unknown option for down: $1" ;;
    esac
  done
  local name pidfile
  # all at once: each service drains its consumers on SIGTERM, which takes seconds
  for pidfile in "$WRITER_PID" $(for name in $CRYO_SERVICES; do service_pidfile "$name"; done); do
    pid_alive "$pidfile" && kill -TERM "$(cat "$pidfile")" 2>/dev/null || true
  done
  writer_stop
  for name in $(echo "$CRYO_SERVICES" | tr ' ' '\n' | tac); do
    service_stop "$name"
  done
  if [ -z "$keep_infra" ]; then
    spark_down
    trino_down
    hms_down
    kafka_down
    pg_down
  fi
  # what is left of this runtime, if anything: every process ./cryo starts runs from it
  local left
  left=$(ps -eo pid=,args= | grep -F "$RUNTIME" | grep -v -F "grep -F" || true)
  if [ -z "$keep_infra" ] && [ -n "$left" ]; then
    warn "processes of $RUNTIME still run:"
    printf '%s\n' "$left" >&2
    return 2
  fi
  step "Stopped$([ -n "$keep_infra" ] && echo " Cryo's services and the writer (infrastructure kept)" || echo " everything"); data stays in $RUNTIME"
}

cryo_status() {
  printf '%s%-12s %-10s %-22s %-8s %-7s %s%s\n' "$BOLD" component state endpoint pid health log "$RESET"
  local name
  for name in $CRYO_SERVICES; do
    service_status "$name"
  done
  writer_status
  kafka_status | awk '{printf "%-12s %-10s %-22s %-8s %-7s %s\n", $1, $2, $3, $4, "-", $5}'
  pg_status | awk '{printf "%-12s %-10s %-22s %-8s %-7s %s\n", $1, $2, $3, $4, "-", $5}'
  trino_status | awk '{printf "%-12s %-10s %-22s %-8s %-7s %s\n", $1, $2, $3, $4, "-", $5}'
  spark_status | awk '{printf "%-12s %-10s %-22s %-8s %-7s %s\n", $1, $2, $3, $4, "-", $5}'
  hms_status | awk '{printf "%-12s %-10s %-22s %-8s %-7s %s\n", $1, $2, $3, $4, "-", $5}'
  if [ -f "$RUNTIME/engine" ]; then
    echo
    echo "engine: $(cat "$RUNTIME/engine")   tokens: $TOKENS_FILE"
  fi
}

# cryo_cli ARGS: the command line (module cli), built when missing.
cryo_cli() {
  local jar
  jar=$(cli_jar)
  if [ -z "$jar" ] || [ ! -d "$CRYO_HOME/cli/target/lib" ]; then
    mkdir -p "$RUNTIME"
    step "Building the command line (first use)" >&2
    (cd "$CRYO_HOME" && "$CRYO_HOME/mvnw" -B -q package -DskipTests -Dmaven.test.skip=true -pl cli -am) >&2 \
      || die "Cannot build the command line: see the Maven output above"
    jar=$(cli_jar)
  fi
  local -a urls=()
  local name
  for name in scanner scorer planner governor executor audit; do
    local variable
    variable="CRYO_$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')_URL"
    urls+=("$variable=${!variable:-$(service_url "$name")}")
  done
  env "${urls[@]}" CRYO_TOKENS_FILE="${CRYO_TOKENS_FILE:-$TOKENS_FILE}" \
    java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -jar "$jar" "$@"
}
