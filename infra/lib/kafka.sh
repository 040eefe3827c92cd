# Local Apache Kafka (KRaft, single node) from Maven Central jars, SASL/SCRAM and ACLs. Sourced by ./cryo.

KAFKA_PORT="${CRYO_KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${CRYO_KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_DIR="$RUNTIME/kafka"
KAFKA_PID="$KAFKA_DIR/kafka.pid"
KAFKA_LOG="$KAFKA_DIR/kafka.log"

kafka_external() { [ -n "${KAFKA_BOOTSTRAP_SERVERS:-}" ]; }

kafka_bootstrap() { echo "${KAFKA_BOOTSTRAP_SERVERS:-127.0.0.1:$KAFKA_PORT}"; }

kafka_fetch() {
  if fetched_for "$CRYO_HOME/infra/kafka/pom.xml" "$KAFKA_DIR/libs"; then
    return 0
  fi
  step "Fetching the Kafka 4.1.2 broker jars from Maven Central"
  rm -rf "$KAFKA_DIR/libs"
  mkdir -p "$KAFKA_DIR/libs"
  mvnw -f "$CRYO_HOME/infra/kafka/pom.xml" dependency:copy-dependencies \
      -DoutputDirectory="$KAFKA_DIR/libs" -DincludeScope=runtime \
    || die "Cannot fetch the Kafka broker jars: is Maven Central reachable?"
  mark_fetched "$CRYO_HOME/infra/kafka/pom.xml" "$KAFKA_DIR/libs"
  info "$(ls "$KAFKA_DIR/libs" | wc -l) jars in $KAFKA_DIR/libs"
}

# The principals whose passwords credentials.properties keeps: the broker's own two (cryo-admin, the
# super user that creates topics and principals; cryo-controller, the broker's link to its controller)
# and those of contracts' KafkaPrincipals (TopicAdmin principals refuses a file that lacks one).
KAFKA_PRINCIPALS="cryo-admin cryo-controller cryo-scanner cryo-scorer cryo-planner cryo-governor cryo-executor cryo-audit cryo-reporter"
KAFKA_CREDENTIALS="$KAFKA_DIR/credentials.properties"

# kafka_credentials_init: a random password for every principal that has none yet (file mode 600).
kafka_credentials_init() {
  mkdir -p "$KAFKA_DIR"
  (umask 077 && touch "$KAFKA_CREDENTIALS")
  chmod 600 "$KAFKA_CREDENTIALS"
  local principal
  for principal in $KAFKA_PRINCIPALS; do
    grep -q "^$principal=" "$KAFKA_CREDENTIALS" || echo "$principal=$(random_hex 24)" >> "$KAFKA_CREDENTIALS"
  done
}

# kafka_password PRINCIPAL: its password on the local broker (empty for an external broker).
kafka_password() {
  [ -f "$KAFKA_CREDENTIALS" ] || return 0
  sed -n "s/^$1=//p" "$KAFKA_CREDENTIALS"
}

# kafka_client_environment PRINCIPAL: CRYO_KAFKA_USER / CRYO_KAFKA_PASSWORD lines for a client of the
# local broker; nothing for an external one (its clients bring their own, e.g. in the environment).
kafka_client_environment() {
  if kafka_external; then
    return 0
  fi
  echo "CRYO_KAFKA_USER=$1"
  echo "CRYO_KAFKA_PASSWORD=$(kafka_password "$1")"
}

# as_kafka_principal PRINCIPAL COMMAND...: runs COMMAND (a function or a program) in a subshell as that
# principal of the local broker (its CRYO_KAFKA_USER / CRYO_KAFKA_PASSWORD exported).
as_kafka_principal() {
  local principal="$1" line
  shift
  (
    while IFS= read -r line; do export "${line?}"; done < <(kafka_client_environment "$principal")
    "$@"
  )
}

kafka_configure() {
  kafka_credentials_init
  mkdir -p "$KAFKA_DIR/data"
  if [ -f "$KAFKA_DIR/data/meta.properties" ] && ! grep -q '^listeners=CLIENTS' "$KAFKA_DIR/server.properties" 2>/dev/null; then
    # a runtime from before authentication: its metadata has no SCRAM credentials and cannot get any
    local aside="$KAFKA_DIR/data.before-authentication-$(date -u +%Y%m%dT%H%M%SZ)"
    info "kafka: the data of an unauthenticated broker moved to $aside (topics are created again)"
    mv "$KAFKA_DIR/data" "$aside"
    mkdir -p "$KAFKA_DIR/data"
  fi
  (umask 077 && sed -e "s|@KAFKA_PORT@|$KAFKA_PORT|g" -e "s|@CONTROLLER_PORT@|$KAFKA_CONTROLLER_PORT|g" \
      -e "s|@DATA_DIR@|$KAFKA_DIR/data|g" -e "s|@ADMIN_PASSWORD@|$(kafka_password cryo-admin)|g" \
      -e "s|@CONTROLLER_PASSWORD@|$(kafka_password cryo-controller)|g" \
      "$CRYO_HOME/infra/kafka/server.properties.template" > "$KAFKA_DIR/server.properties")
  if [ ! -f "$KAFKA_DIR/data/meta.properties" ]; then
    step "Formatting Kafka storage (first start)"
    local cluster_id
    cluster_id=$(java -cp "$KAFKA_DIR/libs/*" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n 1)
    java -Dlog4j2.configurationFile="$CRYO_HOME/infra/kafka/log4j2.properties" -cp "$KAFKA_DIR/libs/*" \
        kafka.tools.StorageTool format -t "$cluster_id" -c "$KAFKA_DIR/server.properties" \
        --add-scram "SCRAM-SHA-512=[name=cryo-admin,password=$(kafka_password cryo-admin)]" >> "$KAFKA_LOG" 2>&1 \
      || die "Cannot format Kafka storage: see $KAFKA_LOG"
  fi
}

kafka_up() {
  if kafka_external; then
    info "kafka: external at $KAFKA_BOOTSTRAP_SERVERS (KAFKA_BOOTSTRAP_SERVERS), not started here"
    return 0
  fi
  if pid_alive "$KAFKA_PID"; then
    info "kafka: already running (pid $(cat "$KAFKA_PID")) on 127.0.0.1:$KAFKA_PORT"
    return 0
  fi
  if port_open 127.0.0.1 "$KAFKA_PORT"; then
    die "Cannot start Kafka: port $KAFKA_PORT is taken by another process. Stop it, or set KAFKA_BOOTSTRAP_SERVERS to use it."
  fi
  kafka_fetch
  kafka_configure
  step "Starting Kafka on 127.0.0.1:$KAFKA_PORT"
  nohup java -Xms128m -Xmx384m -XX:+UseG1GC -Djava.awt.headless=true \
      -Dlog4j2.configurationFile="$CRYO_HOME/infra/kafka/log4j2.properties" \
      -cp "$KAFKA_DIR/libs/*" kafka.Kafka "$KAFKA_DIR/server.properties" >> "$KAFKA_LOG" 2>&1 < /dev/null &
  echo $! > "$KAFKA_PID"
  if ! wait_for "Kafka" 60 port_open 127.0.0.1 "$KAFKA_PORT"; then
    tail -n 20 "$KAFKA_LOG" >&2
    die "Kafka did not open port $KAFKA_PORT within 60 s: see $KAFKA_LOG"
  fi
  info "kafka: ready (pid $(cat "$KAFKA_PID")), log $KAFKA_LOG"
}

kafka_topics() {
  ensure_contracts_jar
  step "Creating Cryo topics on $(kafka_bootstrap)"
  local classpath
  classpath="$(contracts_jar):$KAFKA_DIR/libs/*"
  if kafka_external && [ ! -d "$KAFKA_DIR/libs" ]; then
    kafka_fetch
  fi
  as_kafka_principal cryo-admin java -Dlog4j2.configurationFile="$CRYO_HOME/infra/kafka/log4j2.properties" -Dlog4j2.level=warn \
      -cp "$classpath" dev.cryo.contracts.kafka.TopicAdmin create "$(kafka_bootstrap)" 60 2> "$KAFKA_DIR/topics.log" \
    | sed 's/^/    /' || die "Cannot create topics: see $KAFKA_DIR/topics.log"
  if ! kafka_external; then
    # every start: a principal or an ACL that contracts added since reaches the broker
    as_kafka_principal cryo-admin java -Dlog4j2.configurationFile="$CRYO_HOME/infra/kafka/log4j2.properties" -Dlog4j2.level=warn \
        -cp "$classpath" dev.cryo.contracts.kafka.TopicAdmin principals "$(kafka_bootstrap)" 60 "$KAFKA_CREDENTIALS" \
        2>> "$KAFKA_DIR/topics.log" | sed 's/^/    /' || die "Cannot provision Kafka principals and ACLs: see $KAFKA_DIR/topics.log"
  fi
}

kafka_down() {
  if kafka_external; then
    return 0
  fi
  if pid_alive "$KAFKA_PID"; then
    step "Stopping Kafka (pid $(cat "$KAFKA_PID"))"
  fi
  stop_pid kafka "$KAFKA_PID" 30
}

kafka_status() {
  if kafka_external; then
    local state="unreachable"
    local first="${KAFKA_BOOTSTRAP_SERVERS%%,*}"
    port_open "${first%:*}" "${first##*:}" && state="reachable"
    printf '%-12s %-10s %-22s %-8s %s\n' kafka "$state" "$KAFKA_BOOTSTRAP_SERVERS" "-" "(external)"
  elif pid_alive "$KAFKA_PID"; then
    printf '%-12s %-10s %-22s %-8s %s\n' kafka running "127.0.0.1:$KAFKA_PORT" "$(cat "$KAFKA_PID")" "$KAFKA_LOG"
  else
    printf '%-12s %-10s %-22s %-8s %s\n' kafka stopped "127.0.0.1:$KAFKA_PORT" "-" "$KAFKA_LOG"
  fi
}
