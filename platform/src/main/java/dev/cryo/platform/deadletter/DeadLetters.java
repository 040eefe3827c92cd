package dev.cryo.platform.deadletter;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.CloudEvents;
import dev.cryo.contracts.kafka.CryoRecordSerializer;
import dev.cryo.contracts.kafka.KafkaPrincipals;
import dev.cryo.platform.config.ServiceConfig;
import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.messaging.KafkaConnection;
import io.quarkus.logging.Log;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * This service's dead-letter topic ({@code cryo.dlq.<service>.v1}) for operators: list what waits, and
 * re-drive a record, i.e. publish it again, byte for byte with its original headers, on the topic it was
 * read from, once the cause is fixed.
 *
 * <p>The topic itself remembers re-drives: each one appends a marker record to the dead-letter topic
 * (header {@value #REDRIVE_OF} = the re-driven record, {@code ce_actor} = the operator, {@code
 * dead-letter-reason} = what was done). The audit service reads every dead-letter topic, so each re-drive
 * is in the audit log with its principal, and a second re-drive of the same record is refused. Downstream
 * consumers deduplicate by CloudEvents id, so a re-driven event that another consumer of the same topic
 * had handled is not handled twice.
 */
@ApplicationScoped
public class DeadLetters {

    /** Header of a re-drive marker: the id ({@code <partition>-<offset>}) of the dead letter it re-drove. */
    public static final String REDRIVE_OF = "cryo-redrive-of";
    /** Header of a marker: where the re-driven copy went, {@code <topic>/<partition>/<offset>}. */
    public static final String REDRIVEN_TO = "cryo-redriven-to";
    /** Header of a re-driven copy: the operator who re-drove it. */
    public static final String REDRIVEN_BY = "cryo-redriven-by";
    /** Header of a re-driven copy: the dead letter it came from, {@code <dead-letter topic>/<partition>/<offset>}. */
    public static final String REDRIVEN_FROM = "cryo-redriven-from";

    static final String DEAD_LETTER_REASON = "dead-letter-reason";
    static final String DEAD_LETTER_TOPIC = "dead-letter-topic";
    static final String DEAD_LETTER_PARTITION = "dead-letter-partition";
    static final String DEAD_LETTER_OFFSET = "dead-letter-offset";

    /** How far back a listing or a re-drive of everything looks, per partition: a dead-letter topic is small. */
    static final int MAX_SCANNED_RECORDS = 10_000;
    static final int MAX_IDS = 1_000;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern ID = Pattern.compile("(\\d{1,9})-(\\d{1,18})");

    private final String topic;
    private final String service;
    private final KafkaConnection kafka;
    private final Clock clock;
    private KafkaProducer<String, byte[]> producer;

    DeadLetters(ServiceConfig service, KafkaConnection kafka, Clock clock) {
        this.topic = Topics.deadLetter(service.name());
        this.service = service.name();
        this.kafka = kafka;
        this.clock = clock;
    }

    /** The dead-letter topic of this service. */
    public String topic() {
        return topic;
    }

    /** The newest {@code limit} dead letters, newest first, with their re-drive state. */
    public List<DeadLetter> list(int limit) {
        DeadLetterScan scan = scan(Map.of());
        return scan.deadLetters.values().stream()
                .sorted(Comparator.comparing(DeadLetter::deadLetteredAt).thenComparing(DeadLetter::id).reversed())
                .limit(limit)
                .toList();
    }

    /**
     * Re-drives the given dead letters, or every one that waits when {@code ids} is empty and
     * {@code everything} was asked for. Each is published on its original topic and acknowledged by
     * the broker before its marker is written.
     */
    public synchronized List<Redrive> redrive(List<String> ids, RedriveScope scope, String actor) {
        Map<Integer, Long> from = new HashMap<>();
        List<String> requested = new ArrayList<>();
        if (scope == RedriveScope.LISTED) {
            if (ids == null || ids.isEmpty()) {
                throw CryoException.invalid("Cannot re-drive dead letters of " + topic + ": name them, {\"ids\": [\"0-42\"]},"
                        + " or ask for every waiting one with {\"all\": true}");
            }
            if (ids.size() > MAX_IDS) {
                throw CryoException.invalid("Cannot re-drive " + ids.size() + " dead letters at once: at most " + MAX_IDS);
            }
            for (String id : ids) {
                Matcher matcher = id == null ? null : ID.matcher(id);
                if (matcher == null || !matcher.matches()) {
                    throw CryoException.invalid("Cannot re-drive '" + printable(id) + "': a dead-letter id is "
                            + "<partition>-<offset>, as GET /api/v1/dead-letters lists them");
                }
                from.merge(Integer.parseInt(matcher.group(1)), Long.parseLong(matcher.group(2)), Math::min);
                if (!requested.contains(id)) {
                    requested.add(id);
                }
            }
        }
        DeadLetterScan scan = scan(from);
        if (scope == RedriveScope.ALL_WAITING) {
            scan.deadLetters.values().stream().filter(letter -> !letter.isRedriven())
                    .sorted(Comparator.comparing(DeadLetter::deadLetteredAt)).forEach(letter -> requested.add(letter.id()));
        }
        List<Redrive> results = new ArrayList<>();
        for (String id : requested) {
            results.add(redriveOne(id, scan, actor));
        }
        return results;
    }

    /** Which dead letters a re-drive covers. */
    public enum RedriveScope { LISTED, ALL_WAITING }

    /** Why the record cannot be re-driven (a marker, unknown, already re-driven, no or a forbidden target, cut), if so. */
    private Optional<Redrive> refusal(String id, DeadLetterScan scan) {
        if (scan.markers.contains(id)) {
            return refused(id, "Cannot re-drive " + id + ": it is a re-drive marker, not a dead letter");
        }
        DeadLetter letter = scan.deadLetters.get(id);
        ConsumerRecord<String, byte[]> record = scan.records.get(id);
        if (letter == null || record == null) {
            return refused(id, "Cannot re-drive " + id + ": " + topic + " holds no such record (an id is"
                    + " <partition>-<offset>; old records leave with the topic's retention.ms)");
        }
        if (letter.isRedriven()) {
            return Optional.of(new Redrive(id, Redrive.ALREADY_REDRIVEN, letter.redrivenTo(), "Not re-driven again: "
                    + letter.redrivenBy() + " re-drove it at " + letter.redrivenAt() + " to " + letter.redrivenTo()));
        }
        String target = letter.originalTopic();
        if (target == null || target.isBlank()) {
            return refused(id, "Cannot re-drive " + id + ": it has no " + DEAD_LETTER_TOPIC
                    + " header, so its original topic is unknown");
        }
        if (target.startsWith("cryo.dlq.")) {
            return refused(id, "Cannot re-drive " + id + " to " + target
                    + ": that is a dead-letter topic; re-drives go back to the topic a consumer reads");
        }
        Optional<String> forbidden = forbiddenTarget(service, target);
        if (forbidden.isPresent()) {
            return refused(id, "Cannot re-drive " + id + " to " + target + ": " + forbidden.get());
        }
        Header truncated = record.headers().lastHeader(CryoRecordSerializer.TRUNCATED_HEADER);
        if (truncated != null) {
            return refused(id, "Cannot re-drive " + id + ": its value was cut from "
                    + new String(truncated.value(), StandardCharsets.UTF_8) + " to " + record.value().length
                    + " bytes when it was dead-lettered; the original is on " + target + " at partition "
                    + letter.originalPartition() + ", offset " + letter.originalOffset() + " until the topic's retention");
        }
        return Optional.empty();
    }

    private static Optional<Redrive> refused(String id, String message) {
        return Optional.of(new Redrive(id, Redrive.REFUSED, null, message));
    }

    private Redrive redriveOne(String id, DeadLetterScan scan, String actor) {
        Optional<Redrive> refused = refusal(id, scan);
        if (refused.isPresent()) {
            return refused.get();
        }
        DeadLetter letter = scan.deadLetters.get(id);
        ConsumerRecord<String, byte[]> record = scan.records.get(id);
        String target = letter.originalTopic();
        String from = topic + "/" + record.partition() + "/" + record.offset();
        RecordMetadata sent = send(new ProducerRecord<>(target, null, record.key(), record.value(),
                RedriveHeaders.copy(record, actor, from)));
        String to = sent.topic() + "/" + sent.partition() + "/" + sent.offset();
        send(new ProducerRecord<>(topic, record.partition(), record.key(), null,
                RedriveHeaders.marker(record, id, actor, target, from, to)));
        Log.infof("Re-drove dead letter %s of %s to %s for %s", id, topic, to, actor);
        return new Redrive(id, Redrive.REDRIVEN, to, "re-driven to " + to);
    }

    /**
     * Why {@code service} may not re-drive onto {@code target}: its Kafka principal may not write there
     * ({@link KafkaPrincipals}); empty when it may, or when the service has no principal of Cryo's.
     */
    static Optional<String> forbiddenTarget(String service, String target) {
        KafkaPrincipals.Principal principal = KafkaPrincipals.all().get(KafkaPrincipals.of(service));
        if (principal == null || principal.mayWrite(target)) {
            return Optional.empty();
        }
        return Optional.of(principal.name() + " may not write it (contracts' KafkaPrincipals): admitted jobs and job "
                + "results are never re-driven; the table's lease expires and the table is planned again");
    }

    /** Reads the dead-letter topic: from the given offsets, or the last MAX_SCANNED_RECORDS of each partition. */
    private DeadLetterScan scan(Map<Integer, Long> fromOffsets) {
        DeadLetterScan scan = new DeadLetterScan();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProperties())) {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic, READ_TIMEOUT);
            if (partitions == null || partitions.isEmpty()) {
                return scan;
            }
            List<TopicPartition> assigned = partitions.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(assigned);
            Map<TopicPartition, Long> begin = consumer.beginningOffsets(assigned, READ_TIMEOUT);
            Map<TopicPartition, Long> end = consumer.endOffsets(assigned, READ_TIMEOUT);
            Map<TopicPartition, Long> remaining = new HashMap<>();
            for (TopicPartition partition : assigned) {
                long start = Optional.ofNullable(fromOffsets.get(partition.partition()))
                        .orElse(end.get(partition) - MAX_SCANNED_RECORDS);
                start = Math.max(begin.get(partition), Math.min(start, end.get(partition)));
                consumer.seek(partition, start);
                if (start < end.get(partition)) {
                    remaining.put(partition, end.get(partition));
                }
            }
            Instant deadline = clock.instant().plus(READ_TIMEOUT);
            while (!remaining.isEmpty()) {
                if (clock.instant().isAfter(deadline)) {
                    throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot read " + topic
                            + ": Kafka did not deliver its records within " + READ_TIMEOUT);
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    scan.add(record);
                }
                remaining.keySet().removeIf(partition -> consumer.position(partition) >= remaining.get(partition));
            }
        } catch (KafkaException e) {
            throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot read " + topic + ": " + e.getMessage(), e);
        }
        scan.applyMarkers();
        return scan;
    }

    private RecordMetadata send(ProducerRecord<String, byte[]> record) {
        try {
            return producer().send(record).get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot publish to " + record.topic()
                    + ": interrupted", e);
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot publish to " + record.topic() + ": "
                    + cause.getMessage(), cause);
        }
    }

    private synchronized KafkaProducer<String, byte[]> producer() {
        if (producer == null) {
            Map<String, Object> properties = kafka.settings();
            properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            properties.put(ProducerConfig.ACKS_CONFIG, "all");
            properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
            properties.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
            properties.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(Topics.MAX_RECORD_BYTES));
            properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
            properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
            properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "25000");
            properties.put(ProducerConfig.CLIENT_ID_CONFIG, "cryo-dead-letter-redrive");
            producer = new KafkaProducer<>(properties);
        }
        return producer;
    }

    private Map<String, Object> consumerProperties() {
        Map<String, Object> properties = kafka.settings();
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(Topics.MAX_RECORD_BYTES));
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "cryo-dead-letter-reader");
        return properties;
    }

    @PreDestroy
    synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }

    private static String printable(String text) {
        if (text == null) {
            return "null";
        }
        String cut = text.length() > 40 ? text.substring(0, 40) + "…" : text;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
