package dev.cryo.reporter;

import org.apache.iceberg.metrics.CommitReport;
import org.apache.iceberg.metrics.MetricsReport;
import org.apache.iceberg.metrics.MetricsReporter;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An Iceberg {@link MetricsReporter} that turns every commit's {@link CommitReport} into a Cryo
 * {@code TableChanged} on Kafka ({@code cryo.table-changed.v1}, CloudEvents binary mode, key =
 * table id), so the scanner rescans the table within a second of the commit.
 *
 * <p>A writer enables it with catalog properties:
 * <pre>
 * metrics-reporter-impl=dev.cryo.reporter.KafkaCommitReporter
 * cryo.reporter.bootstrap-servers=kafka:9092
 * cryo.reporter.catalog=lake          # the catalog name in Cryo's table ids
 * cryo.reporter.actor=nightly-etl     # optional: who writes
 * # as the principal cryo-reporter, whose ACLs allow writing cryo.table-changed.v1 and nothing else
 * cryo.reporter.kafka.security.protocol=SASL_PLAINTEXT
 * cryo.reporter.kafka.sasl.mechanism=SCRAM-SHA-512
 * cryo.reporter.kafka.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="cryo-reporter" password="...";
 * </pre>
 *
 * <p>It never blocks or fails the writer's commit: {@link #report} only puts the record in a
 * bounded queue (dropping it, counted, when the queue is full); a daemon thread sends it, and a
 * send that fails (Kafka down, timeout) is dropped and counted too. The scanner's watcher and
 * sweeps catch what was dropped.
 */
public class KafkaCommitReporter implements MetricsReporter {

    public static final String BOOTSTRAP_SERVERS = "cryo.reporter.bootstrap-servers";
    public static final String CATALOG = "cryo.reporter.catalog";
    public static final String ACTOR = "cryo.reporter.actor";
    public static final String TOPIC = "cryo.reporter.topic";
    public static final String QUEUE_SIZE = "cryo.reporter.queue-size";
    public static final String SEND_TIMEOUT_MS = "cryo.reporter.send-timeout-ms";
    /** Further producer settings: {@code cryo.reporter.kafka.<producer config>} (security, for instance). */
    public static final String KAFKA_PREFIX = "cryo.reporter.kafka.";

    /** Producer settings (security, for instance) as the catalog properties that carry them: {@value #KAFKA_PREFIX}{@code <setting>}. */
    public static Map<String, String> producerProperties(Map<String, ?> settings) {
        Map<String, String> properties = new HashMap<>();
        settings.forEach((key, value) -> properties.put(KAFKA_PREFIX + key, String.valueOf(value)));
        return properties;
    }

    static final String DEFAULT_TOPIC = "cryo.table-changed.v1";
    static final String EVENT_TYPE = "dev.cryo.table.changed.v1";
    static final String EVENT_SOURCE = "/cryo/commit-reporter";

    private static final Logger LOG = Logger.getLogger(KafkaCommitReporter.class.getName());

    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final Clock clock;
    private volatile BlockingQueue<ProducerRecord<String, byte[]>> queue;
    private volatile KafkaProducer<String, byte[]> producer;
    private volatile Thread sender;
    private volatile boolean closed;
    private String topic = DEFAULT_TOPIC;
    private String catalog;
    private String actor;

    public KafkaCommitReporter() {
        this(Clock.systemUTC());
    }

    KafkaCommitReporter(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void initialize(Map<String, String> properties) {
        String servers = properties.get(BOOTSTRAP_SERVERS);
        if (servers == null || servers.isBlank()) {
            throw new IllegalArgumentException("Cannot start the Cryo commit reporter: set catalog property "
                    + BOOTSTRAP_SERVERS + " to the Kafka bootstrap servers");
        }
        catalog = properties.get(CATALOG);
        actor = properties.get(ACTOR);
        topic = properties.getOrDefault(TOPIC, DEFAULT_TOPIC);
        int queueSize = Integer.parseInt(properties.getOrDefault(QUEUE_SIZE, "10000"));
        long sendTimeoutMs = Long.parseLong(properties.getOrDefault(SEND_TIMEOUT_MS, "5000"));
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        // bounded everywhere: a broker that is down costs the sender thread at most these, never the writer
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, sendTimeoutMs);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.max(sendTimeoutMs, 2000));
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(sendTimeoutMs, 2000) - 1);
        config.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 4L * 1024 * 1024);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "cryo-commit-reporter-" + UUID.randomUUID().toString().substring(0, 8));
        properties.forEach((key, value) -> {
            if (key.startsWith(KAFKA_PREFIX)) {
                config.put(key.substring(KAFKA_PREFIX.length()), value);
            }
        });
        queue = new ArrayBlockingQueue<>(queueSize);
        producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
        sender = new Thread(this::sendLoop, "cryo-commit-reporter");
        sender.setDaemon(true);
        sender.start();
    }

    @Override
    public void report(MetricsReport report) {
        if (!(report instanceof CommitReport commit) || closed) {
            return;
        }
        try {
            ProducerRecord<String, byte[]> record = toRecord(commit);
            BlockingQueue<ProducerRecord<String, byte[]>> pending = queue;
            if (pending == null || !pending.offer(record)) {
                drop("the reporter's queue is full or it was not initialized", null);
            }
        } catch (RuntimeException e) {
            // whatever goes wrong here, the writer's commit has already succeeded and must stay so
            drop("the commit report could not be turned into an event", e);
        }
    }

    /** Events the broker acknowledged. */
    public long sentCount() {
        return sent.get();
    }

    /** Events dropped: queue full, Kafka unreachable, send failed. */
    public long droppedCount() {
        return dropped.get();
    }

    ProducerRecord<String, byte[]> toRecord(CommitReport commit) {
        String table = tableId(commit.tableName());
        Instant now = clock.instant();
        Map<String, String> metadata = commit.metadata() == null ? Map.of() : commit.metadata();
        String json = TableChangedJson.write(table, now, commit.snapshotId(), commit.sequenceNumber(), commit.operation(),
                metadata.get("cryo.job-id"), actor);
        String id = UUID.randomUUID().toString();
        RecordHeaders headers = new RecordHeaders();
        header(headers, "ce_specversion", "1.0");
        header(headers, "ce_id", id);
        header(headers, "ce_source", EVENT_SOURCE);
        header(headers, "ce_type", EVENT_TYPE);
        header(headers, "ce_time", now.toString());
        header(headers, "ce_subject", table);
        header(headers, "ce_correlationid", id);
        header(headers, "content-type", "application/json");
        if (actor != null) {
            header(headers, "ce_actor", actor);
        }
        return new ProducerRecord<>(topic, null, table, json.getBytes(StandardCharsets.UTF_8), headers);
    }

    /**
     * Cryo's table id for Iceberg's table name: Iceberg names a table {@code <catalog>.<namespace>.<table>}
     * with its own catalog name; the reporter puts the configured {@value #CATALOG} in its place.
     */
    String tableId(String icebergName) {
        String[] parts = icebergName.split("\\.");
        if (catalog == null) {
            return icebergName;
        }
        if (parts.length >= 3) {
            return catalog + icebergName.substring(parts[0].length());
        }
        return catalog + "." + icebergName;
    }

    private void sendLoop() {
        try {
            // fetch the topic's metadata now, so the first commit's event does not wait for it
            producer.partitionsFor(topic);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Cryo commit reporter cannot reach Kafka yet: " + e.getMessage());
        }
        while (!closed || !queue.isEmpty()) {
            ProducerRecord<String, byte[]> record;
            try {
                record = queue.poll(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (record == null) {
                continue;
            }
            try {
                producer.send(record, (metadata, error) -> {
                    if (error == null) {
                        sent.incrementAndGet();
                    } else {
                        drop("Kafka did not take the event: " + error.getMessage(), null);
                    }
                });
            } catch (RuntimeException e) {
                drop("Kafka is unreachable: " + e.getMessage(), null);
            }
        }
    }

    private void drop(String reason, Exception error) {
        long count = dropped.incrementAndGet();
        // one line per hundred drops: a broker outage must not flood the writer's log
        if (count == 1 || count % 100 == 0) {
            LOG.log(Level.WARNING, "Cryo commit reporter dropped " + count + " event(s) so far: " + reason, error);
        }
    }

    private static void header(RecordHeaders headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        closed = true;
        Thread thread = sender;
        if (thread != null) {
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        KafkaProducer<String, byte[]> kafka = producer;
        if (kafka != null) {
            kafka.close(java.time.Duration.ofSeconds(2));
        }
    }
}
