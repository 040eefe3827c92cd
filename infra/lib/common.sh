# Shared helpers of ./cryo. Sourced, not executed.

CRYO_HOME="${CRYO_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
RUNTIME="${CRYO_RUNTIME_DIR:-$CRYO_HOME/.cryo-runtime}"

if [ -t 1 ]; then
  BOLD=$'\033[1m'; DIM=$'\033[2m'; RED=$'\033[31m'; GREEN=$'\033[32m'; YELLOW=$'\033[33m'; RESET=$'\033[0m'
else
  BOLD=""; DIM=""; RED=""; GREEN=""; YELLOW=""; RESET=""
fi

step() { printf '%s==>%s %s\n' "$BOLD" "$RESET" "$*"; }
info() { printf '    %s\n' "$*"; }
warn() { printf '%swarning:%s %s\n' "$YELLOW" "$RESET" "$*" >&2; }
die()  { printf '%serror:%s %s\n' "$RED" "$RESET" "$*" >&2; exit "${2:-2}"; }

# port_open HOST PORT: true when something accepts TCP connections there.
port_open() {
  (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && { exec 3>&- 3<&-; return 0; }
  return 1
}

# wait_for "what" SECONDS COMMAND...: retries COMMAND every half second.
wait_for() {
  local what="$1" seconds="$2"; shift 2
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      return 1
    fi
    sleep 0.5
  done
}

# pid_alive PIDFILE: true when the file names a running process.
pid_alive() {
  [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

# stop_pid NAME PIDFILE SECONDS: SIGTERM, wait, then SIGKILL; removes the pid file.
stop_pid() {
  local name="$1" pidfile="$2" seconds="$3" pid
  if ! pid_alive "$pidfile"; then
    rm -f "$pidfile"
    return 0
  fi
  pid=$(cat "$pidfile")
  kill -TERM "$pid" 2>/dev/null || true
  if ! wait_for "$name to stop" "$seconds" bash -c "! kill -0 $pid 2>/dev/null"; then
    warn "$name (pid $pid) did not stop within ${seconds}s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 0.5
  fi
  rm -f "$pidfile"
}

mvnw() {
  "$CRYO_HOME/mvnw" -B -q "$@"
}

# module_jar MODULE: the module's built jar (not sources or tests), or nothing when it is not built.
# Never fails, so that callers under `set -e -o pipefail` can test for an empty result.
module_jar() {
  local candidate
  for candidate in "$CRYO_HOME/$1"/target/cryo-"$1"-*.jar; do
    case "$candidate" in
      *-sources.jar|*-tests.jar) ;;
      *) [ -f "$candidate" ] && { echo "$candidate"; return 0; } ;;
    esac
  done
  return 0
}

# The contracts jar carries the topic list (Topics.all()) that infra up creates.
contracts_jar() { module_jar contracts; }

ensure_contracts_jar() {
  local jar
  jar=$(contracts_jar)
  if [ -z "$jar" ] || [ -n "$(find "$CRYO_HOME/contracts/src/main" -newer "$jar" -type f -print -quit)" ]; then
    step "Building contracts (topic definitions)"
    (cd "$CRYO_HOME" && mvnw -pl contracts -am install -DskipTests) || die "Cannot build contracts: see the Maven output above"
  fi
}

# The local Maven repository's folder of Cryo's own artifacts.
CRYO_LOCAL_REPO="${MAVEN_LOCAL_REPO:-$HOME/.m2/repository}/dev/cryo"

# module_classpath MODULE: the module's jar and its runtime dependencies, built when missing or stale.
# Resolving one module's classpath (dependency:build-classpath -pl MODULE) takes its sibling modules
# from the local Maven repository, so they are installed there first when they are missing (a fresh
# machine, where the demo's build left them only in their target folders).
module_classpath() {
  local module="$1" jar cpfile="$RUNTIME/classpath-$1.txt"
  jar=$(module_jar "$module")
  if [ -z "$jar" ] || [ ! -d "$CRYO_LOCAL_REPO/cryo-contracts" ] \
      || [ -n "$(find "$CRYO_HOME/$module/src/main" "$CRYO_HOME/iceberg-support/src/main" "$CRYO_HOME/contracts/src/main" \
                 -newer "$jar" -type f -print -quit 2>/dev/null)" ]; then
    step "Building $module" >&2
    (cd "$CRYO_HOME" && mvnw -pl "$module" -am install -DskipTests) >&2 || return 1
    jar=$(module_jar "$module")
    rm -f "$cpfile"
  fi
  if [ ! -f "$cpfile" ] || [ "$cpfile" -ot "$CRYO_HOME/$module/pom.xml" ] || [ "$cpfile" -ot "$CRYO_HOME/pom.xml" ]; then
    (cd "$CRYO_HOME" && mvnw -pl "$module" dependency:build-classpath -Dmdep.outputFile="$cpfile" -Dmdep.includeScope=runtime) >&2 || return 1
  fi
  echo "$jar:$(cat "$cpfile")"
}

# random_hex BYTES: that many random bytes in hex (tokens, passwords)
# fetched_for POM DIR: whether DIR holds the jars of POM as it stands now: mark_fetched keeps the
# pom's checksum in DIR/.complete, so a changed pom fetches again into an emptied DIR.
fetched_for() { [ -f "$2/.complete" ] && [ "$(cat "$2/.complete")" = "$(sha256sum < "$1" | cut -c1-64)" ]; }
mark_fetched() { sha256sum < "$1" | cut -c1-64 > "$2/.complete"; }

random_hex() { od -An -vtx1 -N"$1" /dev/urandom | tr -d ' \n'; }
