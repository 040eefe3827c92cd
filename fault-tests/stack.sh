#!/usr/bin/env bash
# The fault-injection suite's handle on the local stack: the same functions as ./cryo (infra/lib),
# one process at a time. Called by the tests (dev.cryo.faults.Stack); usable by hand, e.g.
#   . /work/env-faults.sh && fault-tests/stack.sh status
set -euo pipefail

CRYO_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CRYO_HOME
# Endpoints that name the local broker and database (as ./cryo test exports them) are the local ones:
# forget them, so that infra/lib treats Kafka and PostgreSQL as its own and can restart them.
if [ "${KAFKA_BOOTSTRAP_SERVERS:-}" = "127.0.0.1:${CRYO_KAFKA_PORT:-9092}" ]; then
  unset KAFKA_BOOTSTRAP_SERVERS
fi
if [ "${CRYO_DB_URL:-}" = "jdbc:postgresql://127.0.0.1:${CRYO_PG_PORT:-15432}/cryo" ]; then
  unset CRYO_DB_URL
fi
for library in common kafka postgres catalog hms services demo; do
  # shellcheck source=/dev/null
  . "$CRYO_HOME/infra/lib/$library.sh"
done

# The six services the suite runs (no console: it plays no part in the scenarios).
SUITE_SERVICES="scanner scorer planner governor executor audit"

# Settings that make faults show within a test's minutes, given to the services only (not to
# Kafka or PostgreSQL, which this script also starts) as JVM system properties.
suite_java_options() {
  printf '%s ' "${CRYO_FAULTS_SERVICE_OPTIONS:-}"
}

start_service() {
  JAVA_TOOL_OPTIONS="$(suite_java_options)" service_start "$1"
}

command="${1:-}"
[ $# -gt 0 ] && shift
case "$command" in
  infra-up)
    mkdir -p "$RUNTIME" "$SERVICES_DIR"
    pg_up
    kafka_up
    kafka_topics
    # the tokens are generated once and kept in tokens.env (mode 600); the suite reads them, its log never shows them
    tokens_init > /dev/null
    info "API tokens: $TOKENS_FILE"
    ;;
  up)
    mkdir -p "$SERVICES_DIR"
    # On a broker that already carries other tests' events (CI runs this suite after every module's
    # tests), consumer groups that never ran would first work through all of them and the scenarios'
    # plans would come minutes late: as ./cryo demo does, such groups start at the end of the topics.
    first_start_offsets
    for name in $SUITE_SERVICES; do start_service "$name"; done
    for name in $SUITE_SERVICES; do
      service_await "$name" "${CRYO_START_TIMEOUT:-300}"
      info "$name: ready at $(service_url "$name")"
    done
    ;;
  start) start_service "$1" ;;
  await) service_await "$1" "${CRYO_START_TIMEOUT:-300}" ;;
  stop) service_stop "$1" ;;
  down)
    for name in $SUITE_SERVICES; do
      pid_alive "$(service_pidfile "$name")" && kill -TERM "$(cat "$(service_pidfile "$name")")" 2>/dev/null || true
    done
    for name in $SUITE_SERVICES; do service_stop "$name"; done
    ;;
  kafka-restart)
    kafka_external && die "Cannot restart Kafka: it is external ($KAFKA_BOOTSTRAP_SERVERS); the suite restarts only the broker of ./cryo infra up"
    kafka_down
    kafka_up
    ;;
  kafka-stop)
    kafka_external && die "Cannot stop Kafka: it is external ($KAFKA_BOOTSTRAP_SERVERS); the suite stops only the broker of ./cryo infra up"
    kafka_down
    ;;
  kafka-start)
    kafka_up
    ;;
  pg-restart)
    pg_external && die "Cannot restart PostgreSQL: it is external ($CRYO_DB_URL); the suite restarts only the server of ./cryo infra up"
    pg_down
    pg_up
    ;;
  token) tokens_get CRYO_OPERATOR_TOKEN ;;
  status)
    for name in $SUITE_SERVICES; do service_status "$name"; done
    kafka_status
    pg_status
    ;;
  *)
    echo "usage: stack.sh infra-up | up | start NAME | await NAME | stop NAME | down | kafka-restart | kafka-stop | kafka-start | pg-restart | token | status" >&2
    exit 2
    ;;
esac
