#!/usr/bin/env bash
# The Compose broker's entrypoint (docker-compose.yml, service kafka). With SASL/SCRAM and ACLs nobody can
# log in until a SCRAM credential exists, and in KRaft credentials live in the cluster metadata: so the
# first start formats the empty volume itself, with the super user's credential in the bootstrap metadata
# (kafka-storage.sh format --add-scram, KIP-900). Then it runs the image's own start script, which writes
# server.properties from the KAFKA_* variables, finds the volume formatted and starts the broker.
#
# A volume formatted before authentication was enabled has no cryo-admin: create it once, over the
# loopback listener that only this container reaches, then restart kafka-topics:
#   docker compose exec kafka bash -c '/opt/kafka/bin/kafka-configs.sh --bootstrap-server 127.0.0.1:9094 \
#     --alter --entity-type users --entity-name cryo-admin \
#     --add-config "SCRAM-SHA-512=[password=$CRYO_ADMIN_KAFKA_PASSWORD]"'
# The same command changes the password (docs/operations.md, "Kafka credentials").
set -euo pipefail

data="${KAFKA_LOG_DIRS:?KAFKA_LOG_DIRS is not set}"
password="${CRYO_ADMIN_KAFKA_PASSWORD:?set CRYO_ADMIN_KAFKA_PASSWORD in .env}"
# kafka-storage.sh reads the credential as name=value pairs separated by commas, within brackets
case "$password" in
  *,* | *\]* | *\"*)
    echo "CRYO_ADMIN_KAFKA_PASSWORD must not contain a comma, ] or \"; use letters and digits" >&2
    exit 1 ;;
esac

if [ ! -f "$data/meta.properties" ]; then
  echo "===> Formatting $data with the SCRAM-SHA-512 credential of cryo-admin"
  config="$(mktemp)"
  trap 'rm -f "$config"' EXIT
  # What the format reads: this node, its quorum, its listeners and where its log lives; the same
  # KAFKA_* variables from which the image's script writes server.properties afterwards.
  cat > "$config" <<EOF
node.id=${KAFKA_NODE_ID:?}
process.roles=${KAFKA_PROCESS_ROLES:?}
controller.quorum.voters=${KAFKA_CONTROLLER_QUORUM_VOTERS:?}
controller.listener.names=${KAFKA_CONTROLLER_LISTENER_NAMES:?}
listeners=${KAFKA_LISTENERS:?}
advertised.listeners=${KAFKA_ADVERTISED_LISTENERS:?}
listener.security.protocol.map=${KAFKA_LISTENER_SECURITY_PROTOCOL_MAP:?}
inter.broker.listener.name=${KAFKA_INTER_BROKER_LISTENER_NAME:?}
sasl.enabled.mechanisms=${KAFKA_SASL_ENABLED_MECHANISMS:?}
log.dirs=$data
EOF
  /opt/kafka/bin/kafka-storage.sh format --cluster-id "${CLUSTER_ID:?}" --config "$config" \
    --add-scram "SCRAM-SHA-512=[name=cryo-admin,password=$password]"
  rm -f "$config"
  trap - EXIT
fi

exec /etc/kafka/docker/run
