#!/usr/bin/env bash
# Writes the development overlay's Secrets with random values into secrets/*.env next to this
# script (git-ignored), once: an existing file is kept, so the values survive re-runs and
# `kubectl apply -k` keeps working. Prints the new operator token once; it is in
# secrets/cryo-api-tokens.env afterwards. Nothing here is ever committed.
set -euo pipefail
cd "$(dirname "$0")"
umask 077
mkdir -p secrets

random() { head -c "$1" /dev/urandom | base64 | tr -d '\n/+=' ; }

write() {
  local file="secrets/$1.env"
  shift
  if [ -f "$file" ]; then
    return 1
  fi
  printf '%s\n' "$@" > "$file"
}

write cryo-db "username=cryo" "password=$(random 24)" || true
for service in scanner scorer planner governor executor audit; do
  write "cryo-db-$service" "username=cryo_$service" "password=$(random 24)" || true
  write "cryo-db-$service-owner" "username=cryo_${service}_owner" "password=$(random 24)" || true
done
operator="$(random 24)"
if write cryo-api-tokens "tokens=dev-operator=operator:$operator,dev-viewer=viewer:$(random 24)"; then
  echo "dev operator token (shown once; also in $(pwd)/secrets/cryo-api-tokens.env): $operator"
fi
# The console's session key: base64 of 32 random bytes.
write cryo-console "session-key=$(head -c 32 /dev/urandom | base64 | tr -d '\n')" || true
