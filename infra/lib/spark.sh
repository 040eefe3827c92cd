# Local Spark 4.0.1 Connect server with the Iceberg runtime, from Maven Central jars. Sourced by ./cryo.

SPARK_VERSION=4.0.1
SPARK_PORT="${CRYO_SPARK_PORT:-15002}"
SPARK_HEAP="${CRYO_SPARK_HEAP:-2g}"
SPARK_DIR="$RUNTIME/spark"
SPARK_PID="$SPARK_DIR/spark.pid"
SPARK_LOG="$SPARK_DIR/spark.log"

# Spark's own --add-opens list (launcher JavaModuleOptions): Spark reaches into the JDK.
SPARK_JAVA_OPTIONS=(
  -XX:+IgnoreUnrecognizedVMOptions
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.lang.invoke=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/sun.nio.cs=ALL-UNNAMED
  --add-opens=java.base/sun.security.action=ALL-UNNAMED
  --add-opens=java.base/sun.util.calendar=ALL-UNNAMED
  -Djdk.reflect.useDirectMethodHandle=false
  -Dio.netty.tryReflectionSetAccessible=true
)

spark_fetch() {
  if fetched_for "$CRYO_HOME/infra/spark/pom.xml" "$SPARK_DIR/libs"; then
    return 0
  fi
  step "Fetching Spark $SPARK_VERSION Connect and the Iceberg Spark runtime from Maven Central (about 380 MB, once)"
  rm -rf "$SPARK_DIR/libs"
  mkdir -p "$SPARK_DIR/libs"
  mvnw -f "$CRYO_HOME/infra/spark/pom.xml" dependency:copy-dependencies \
      -DoutputDirectory="$SPARK_DIR/libs" -DincludeScope=runtime \
    || die "Cannot fetch the Spark jars: is Maven Central reachable?"
  mark_fetched "$CRYO_HOME/infra/spark/pom.xml" "$SPARK_DIR/libs"
  info "$(ls "$SPARK_DIR/libs" | wc -l) jars in $SPARK_DIR/libs"
}

spark_up() {
  if pid_alive "$SPARK_PID"; then
    info "spark: already running (pid $(cat "$SPARK_PID")) on 127.0.0.1:$SPARK_PORT"
    return 0
  fi
  if port_open 127.0.0.1 "$SPARK_PORT"; then
    die "Cannot start Spark Connect: port $SPARK_PORT is taken by another process (set CRYO_SPARK_PORT)"
  fi
  spark_fetch
  local_catalog_init
  mkdir -p "$SPARK_DIR/work" "$SPARK_DIR/tmp"
  local catalog="spark.sql.catalog.$LOCAL_CATALOG"
  # the local Hive Metastore's tables, as the catalog Cryo's services give it, when it runs as Spark starts
  local hms_catalog=()
  if hms_ready; then
    hms_catalog=(
      -Dspark.sql.catalog."$HMS_CATALOG"=org.apache.iceberg.spark.SparkCatalog
      -Dspark.sql.catalog."$HMS_CATALOG".type=hive
      -Dspark.sql.catalog."$HMS_CATALOG".uri="$(hms_uri)"
      -Dspark.sql.catalog."$HMS_CATALOG".warehouse="file://$HMS_WAREHOUSE"
    )
  fi
  step "Starting Spark Connect on 127.0.0.1:$SPARK_PORT (local[2])"
  nohup java -Xmx"$SPARK_HEAP" "${SPARK_JAVA_OPTIONS[@]}" \
      -Djava.io.tmpdir="$SPARK_DIR/tmp" \
      -Dspark.master='local[2]' \
      -Dspark.app.name=cryo-spark-connect \
      -Dspark.ui.enabled=false \
      -Dspark.driver.host=127.0.0.1 \
      -Dspark.driver.bindAddress=127.0.0.1 \
      -Dspark.connect.grpc.binding.address=127.0.0.1 \
      -Dspark.connect.grpc.binding.port="$SPARK_PORT" \
      -Dspark.sql.warehouse.dir="$SPARK_DIR/work/spark-warehouse" \
      -Dspark.local.dir="$SPARK_DIR/tmp" \
      -Dspark.sql.extensions=org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions \
      -D"$catalog"=org.apache.iceberg.spark.SparkCatalog \
      -D"$catalog".catalog-impl=org.apache.iceberg.jdbc.JdbcCatalog \
      -D"$catalog".uri="$(local_catalog_jdbc_url)" \
      -D"$catalog".jdbc.user="$CATALOG_USER" \
      -D"$catalog".jdbc.schema-version=V1 \
      -D"$catalog".warehouse="file://$WAREHOUSE_DIR" \
      "${hms_catalog[@]+"${hms_catalog[@]}"}" \
      -cp "$SPARK_DIR/libs/*" org.apache.spark.sql.connect.service.SparkConnectServer \
      >> "$SPARK_LOG" 2>&1 < /dev/null &
  echo $! > "$SPARK_PID"
  local started=$SECONDS
  if ! wait_for "Spark Connect" 120 spark_ready; then
    tail -n 30 "$SPARK_LOG" >&2
    die "Spark Connect did not open port $SPARK_PORT within 120 s: see $SPARK_LOG"
  fi
  info "spark: ready after $((SECONDS - started)) s (pid $(cat "$SPARK_PID")), catalog $LOCAL_CATALOG${hms_catalog[0]+" and $HMS_CATALOG"}, log $SPARK_LOG"
}

spark_ready() {
  pid_alive "$SPARK_PID" && port_open 127.0.0.1 "$SPARK_PORT"
}

spark_down() {
  if pid_alive "$SPARK_PID"; then
    step "Stopping Spark Connect (pid $(cat "$SPARK_PID"))"
  fi
  stop_pid spark "$SPARK_PID" 30
}

spark_status() {
  if pid_alive "$SPARK_PID"; then
    printf '%-12s %-10s %-22s %-8s %s\n' spark running "127.0.0.1:$SPARK_PORT" "$(cat "$SPARK_PID")" "$SPARK_LOG"
  elif [ -d "$SPARK_DIR/libs" ]; then
    printf '%-12s %-10s %-22s %-8s %s\n' spark stopped "127.0.0.1:$SPARK_PORT" "-" "$SPARK_LOG"
  fi
}
