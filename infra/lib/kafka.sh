# Local Apache Kafka (KRaft, single node) from Maven Central jars. Sourced by ./cryo.

KAFKA_PORT="${CRYO_KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${CRYO_KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_DIR="$RUNTIME/kafka"
KAFKA_PID="$KAFKA_DIR/kafka.pid"
KAFKA_LOG="$KAFKA_DIR/kafka.log"

kafka_external() { [ -n "${KAFKA_BOOTSTRAP_SERVERS:-}" ]; }

kafka_bootstrap() { echo "${KAFKA_BOOTSTRAP_SERVERS:-127.0.0.1:$KAFKA_PORT}"; }

kafka_fetch() {
  if [ -f "$KAFKA_DIR/libs/.complete" ]; then
    return 0
  fi
  step "Fetching the Kafka 4.1.2 broker jars from Maven Central"
  mkdir -p "$KAFKA_DIR/libs"
  mvnw -f "$CRYO_HOME/infra/kafka/pom.xml" dependency:copy-dependencies \
      -DoutputDirectory="$KAFKA_DIR/libs" -DincludeScope=runtime \
    || die "Cannot fetch the Kafka broker jars: is Maven Central reachable?"
  touch "$KAFKA_DIR/libs/.complete"
  info "$(ls "$KAFKA_DIR/libs" | wc -l) jars in $KAFKA_DIR/libs"
}

kafka_configure() {
  mkdir -p "$KAFKA_DIR/data"
  sed -e "s|@KAFKA_PORT@|$KAFKA_PORT|g" -e "s|@CONTROLLER_PORT@|$KAFKA_CONTROLLER_PORT|g" \
      -e "s|@DATA_DIR@|$KAFKA_DIR/data|g" \
      "$CRYO_HOME/infra/kafka/server.properties.template" > "$KAFKA_DIR/server.properties"
  if [ ! -f "$KAFKA_DIR/data/meta.properties" ]; then
    step "Formatting Kafka storage (first start)"
    local cluster_id
    cluster_id=$(java -cp "$KAFKA_DIR/libs/*" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n 1)
    java -Dlog4j2.configurationFile="$CRYO_HOME/infra/kafka/log4j2.properties" -cp "$KAFKA_DIR/libs/*" \
        kafka.tools.StorageTool format -t "$cluster_id" -c "$KAFKA_DIR/server.properties" >> "$KAFKA_LOG" 2>&1 \
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
  java -Dlog4j2.configurationFile="$CRYO_HOME/infra/kafka/log4j2.properties" -Dlog4j2.level=warn \
      -cp "$classpath" dev.cryo.contracts.kafka.TopicAdmin create "$(kafka_bootstrap)" 60 2> "$KAFKA_DIR/topics.log" \
    | sed 's/^/    /' || die "Cannot create topics: see $KAFKA_DIR/topics.log"
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
