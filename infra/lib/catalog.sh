# The local Iceberg catalog that Cryo's demo, Trino and Spark share. Sourced by ./cryo.

LOCAL_CATALOG="${CRYO_LOCAL_CATALOG:-lakehouse}"
LOCAL_CATALOG_DATABASE="${CRYO_LOCAL_CATALOG_DATABASE:-cryo_catalog}"
WAREHOUSE_DIR="$RUNTIME/warehouse"
# The role every client opens the local catalog as: owner of its database, no superuser
# (infra/postgres/catalog-role.sql); trust authentication on loopback, so no password.
CATALOG_USER="${CRYO_LOCAL_CATALOG_USER:-cryo_catalog}"

local_catalog_jdbc_url() {
  echo "jdbc:postgresql://127.0.0.1:$PG_PORT/$LOCAL_CATALOG_DATABASE"
}

# Iceberg's JdbcCatalog creates its tables on first use; Trino's JDBC catalog does not, so
# the catalog is initialised once from Iceberg Java.
local_catalog_init() {
  mkdir -p "$WAREHOUSE_DIR"
  if [ -f "$RUNTIME/catalog.initialised" ]; then
    return 0
  fi
  step "Initialising the local Iceberg catalog '$LOCAL_CATALOG' (PostgreSQL database $LOCAL_CATALOG_DATABASE, warehouse $WAREHOUSE_DIR)"
  local classpath
  classpath=$(module_classpath iceberg-fixtures) || die "Cannot build the iceberg-fixtures classpath"
  java -cp "$classpath" dev.cryo.iceberg.fixtures.InitLocalCatalog "$LOCAL_CATALOG" \
      "jdbc:postgresql://127.0.0.1:$PG_PORT/$PG_DATABASE" "$CATALOG_USER" "" \
      "$LOCAL_CATALOG_DATABASE" "$WAREHOUSE_DIR" > "$RUNTIME/catalog-init.log" 2>&1 \
    || { tail -n 20 "$RUNTIME/catalog-init.log" >&2; die "Cannot initialise the local catalog: see $RUNTIME/catalog-init.log"; }
  touch "$RUNTIME/catalog.initialised"
}
