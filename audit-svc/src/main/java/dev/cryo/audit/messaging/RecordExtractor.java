package dev.cryo.audit.domain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.cloudevents.CloudEvents;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.GradeChanged;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobHeartbeat;
import dev.cryo.contracts.event.JobRefused;
import dev.cryo.contracts.event.JobRevoked;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.json.MalformedEventException;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.platform.deadletter.DeadLetters;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Turns a Kafka record into an audit row. A record that reads as a Cryo event (its CloudEvents
 * headers and its payload fit the contract) becomes an {@link RecordKind#EVENT} with every
 * searchable column filled; anything else on a Cryo topic is kept raw as
 * {@link RecordKind#MALFORMED} with the reason; records of dead-letter topics are kept raw as
 * {@link RecordKind#DEAD_LETTER} with the dead-letter reason. Nothing is dropped.
 */
public final class RecordExtractor {

    /** SmallRye's dead-letter headers. */
    static final String DEAD_LETTER_REASON = "dead-letter-reason";
    static final String DEAD_LETTER_EXCEPTION = "dead-letter-exception-class-name";
    static final String DEAD_LETTER_TOPIC = "dead-letter-topic";
    static final String DEAD_LETTER_PARTITION = "dead-letter-partition";
    static final String DEAD_LETTER_OFFSET = "dead-letter-offset";
    /** The CloudEvents {@code dataschema} attribute in binary mode. */
    static final String DATA_SCHEMA = "ce_dataschema";

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** A record of any topic the audit reads: dead-letter topics hold dead letters, the others events. */
    public static AuditRecord extract(RawRecord raw) {
        return AuditTopics.isDeadLetter(raw.topic()) ? deadLetter(raw) : event(raw);
    }

    /** A record of a Cryo event topic. */
    public static AuditRecord event(RawRecord raw) {
        EventEnvelope<CryoEvent> envelope;
        try {
            checkVersion(raw);
            envelope = KafkaEnvelopes.fromRecord(toConsumerRecord(raw));
        } catch (RuntimeException e) {
            return unreadable(raw, RecordKind.MALFORMED, "malformed", null, describe(e));
        }
        EventColumns columns = columns(envelope);
        // The contract accepted the payload, so it is JSON; it is stored as published, with fields this
        // version of Cryo does not know yet.
        return new AuditRecord(envelope.id(), RecordKind.EVENT, envelope.time(), columns, position(raw),
                headersJson(raw), new String(raw.value(), StandardCharsets.UTF_8), null);
    }

    /**
     * Refuses, as every service's consumer does (platform CloudEventMessages), a record of another
     * CloudEvents spec version or of another data schema than its type's v1. Read as a v1 event it would
     * be stored as one, and since it may carry the id of a real event, that event would then be skipped
     * as already stored.
     */
    private static void checkVersion(RawRecord raw) {
        String id = text(raw, CloudEvents.HEADER_ID);
        String specVersion = text(raw, CloudEvents.HEADER_SPEC_VERSION);
        if (specVersion != null && !CloudEvents.SPEC_VERSION.equals(specVersion)) {
            throw new MalformedEventException("Cannot read event " + id + ": CloudEvents spec version " + specVersion
                    + " is not " + CloudEvents.SPEC_VERSION + ", the one Cryo speaks");
        }
        String schema = text(raw, DATA_SCHEMA);
        EventType type = EventType.fromId(text(raw, CloudEvents.HEADER_TYPE)).orElse(null);
        if (schema != null && type != null && !schema.endsWith("/" + type.schemaResource())
                && !schema.equals(type.schemaResource())) {
            throw new MalformedEventException("Cannot read event " + id + ": its dataschema " + schema
                    + " is not the schema of " + type.id() + " (" + type.schemaResource() + "); a newer producer"
                    + " publishes a new version on its own topic");
        }
    }

    /** A record of a dead-letter topic: what a consumer could not handle, and why. */
    public static AuditRecord deadLetter(RawRecord raw) {
        String exception = text(raw, DEAD_LETTER_EXCEPTION);
        String reason = exception == null ? null : exception.substring(exception.lastIndexOf('.') + 1);
        String origin = text(raw, DEAD_LETTER_TOPIC) == null ? ""
                : " (from " + text(raw, DEAD_LETTER_TOPIC) + "-" + text(raw, DEAD_LETTER_PARTITION) + "@"
                + text(raw, DEAD_LETTER_OFFSET) + ")";
        String why = Optional.ofNullable(text(raw, DEAD_LETTER_REASON)).orElse("no dead-letter-reason header");
        if (text(raw, DeadLetters.REDRIVE_OF) != null) {
            // A service's marker of an operator's re-drive: who (ce_actor), which dead letter, and where it went.
            return unreadable(raw, RecordKind.DEAD_LETTER, "re-driven", null, why);
        }
        return unreadable(raw, RecordKind.DEAD_LETTER, "dead-lettered", reason, why + origin);
    }

    private static AuditRecord unreadable(RawRecord raw, RecordKind kind, String status, String reason, String detail) {
        String id = text(raw, CloudEvents.HEADER_ID);
        String subject = text(raw, CloudEvents.HEADER_SUBJECT);
        String correlationId = Optional.ofNullable(text(raw, CloudEvents.HEADER_CORRELATION_ID)).orElse(id);
        EventColumns columns = new EventColumns(text(raw, CloudEvents.HEADER_TYPE), text(raw, CloudEvents.HEADER_SOURCE),
                subject != null ? subject : raw.key(), List.of(), null, status, null, text(raw, CloudEvents.HEADER_ACTOR),
                reason, detail, correlationId, null, null);
        byte[] value = raw.value();
        boolean json = value != null && isJson(value);
        return new AuditRecord(raw.kafkaId(), kind, timeOf(raw), columns, position(raw), headersJson(raw),
                json ? new String(value, StandardCharsets.UTF_8) : null, json ? null : value);
    }

    private static EventColumns columns(EventEnvelope<CryoEvent> envelope) {
        Columns c = new Columns();
        CryoEvent data = envelope.data();
        if (data instanceof TableChanged change) {
            c.status = "changed";
            c.actor = change.actor();
            c.jobId = change.cryoJobId();
            c.detail = "noticed by " + change.source().id()
                    + (change.snapshotId() == null ? "" : ", snapshot " + change.snapshotId())
                    + (change.cryoJobId() == null ? "" : ", committed by Cryo job " + change.cryoJobId());
        } else if (data instanceof TableScanned scan) {
            c.status = "scanned";
            c.duration = scan.scanDuration();
            c.detail = (scan.snapshotId() == null ? "no snapshot" : "snapshot " + scan.snapshotId()) + ": "
                    + scan.totals().dataFiles() + " data files, " + scan.totals().partitions() + " partitions";
        } else if (data instanceof TableGraded graded) {
            c.status = "graded";
            c.operations = fixedOrder(graded.deductions().stream().map(Deduction::fix).toList());
            c.detail = "grade " + graded.grade() + ", score " + graded.score() + ", " + graded.deductions().size()
                    + " deduction(s)";
        } else if (data instanceof GradeChanged changed) {
            c.status = "grade-changed";
            c.operations = fixedOrder(changed.fixes());
            c.detail = changed.previousGrade() == null
                    ? "first grade " + changed.grade() + " (score " + changed.score() + ")"
                    : "grade " + changed.previousGrade() + " → " + changed.grade() + " (score " + changed.previousScore()
                    + " → " + changed.score() + ")";
        } else if (data instanceof MaintenancePlanned plan) {
            c.status = "planned";
            c.planId = plan.planId();
            c.actor = plan.actor();
            c.operations = fixedOrder(plan.operationList());
            c.detail = "score " + plan.score() + " → " + plan.expectedScore() + " expected"
                    + (plan.supersedesPlanId() == null ? "" : ", supersedes plan " + plan.supersedesPlanId());
        } else if (data instanceof JobAdmitted admitted) {
            c.status = "admitted";
            c.jobId = admitted.jobId();
            c.planId = admitted.planId();
            c.engine = admitted.engine().id();
            c.actor = admitted.plan().actor();
            c.operations = fixedOrder(admitted.plan().operationList());
            c.detail = "slot " + admitted.slot() + " on " + admitted.engine().id() + ", admitted by " + admitted.governorId();
        } else if (data instanceof JobRevoked revoked) {
            c.status = "revoked";
            c.jobId = revoked.jobId();
            c.planId = revoked.planId();
            c.reason = "table-paused";
            c.detail = revoked.message() + " (pause " + revoked.pauseId() + ")";
        } else if (data instanceof JobDeferred deferred) {
            c.status = "deferred";
            c.planId = deferred.planId();
            c.engine = deferred.engine() == null ? null : deferred.engine().id();
            c.reason = deferred.reason().id();
            c.detail = deferred.message() + (deferred.retryAfter() == null ? "" : ", retry after " + deferred.retryAfter());
        } else if (data instanceof JobStarted started) {
            c.status = "started";
            c.jobId = started.jobId();
            c.planId = started.planId();
            c.engine = started.engine().id();
            c.detail = "attempt " + started.attempt() + " on " + started.executorId()
                    + (started.chunksAlreadyCommitted() == 0 ? "" : ", " + started.chunksAlreadyCommitted()
                    + " chunk(s) already committed");
        } else if (data instanceof JobHeartbeat heartbeat) {
            c.status = "running";
            c.jobId = heartbeat.jobId();
            c.planId = heartbeat.planId();
            c.operations = heartbeat.operation() == null ? List.of() : List.of(heartbeat.operation().id());
            c.detail = heartbeat.chunksDone() + "/" + heartbeat.chunksTotal() + " chunks on " + heartbeat.executorId();
        } else if (data instanceof OperationFinished finished) {
            c.status = finished.status().id();
            c.jobId = finished.jobId();
            c.planId = finished.planId();
            c.engine = finished.engine().id();
            c.operations = List.of(finished.operation().id());
            c.duration = finished.duration();
            c.reason = finished.errorCode();
            c.detail = finished.message() != null ? finished.message()
                    : finished.operation().id() + (finished.chunkIndex() == null ? "" : " chunk " + finished.chunkIndex())
                    + " " + finished.status().id();
        } else if (data instanceof JobRefused refused) {
            c.status = "refused";
            c.jobId = refused.jobId();
            c.planId = refused.planId();
            c.reason = refused.reason();
            c.detail = refused.message();
        } else if (data instanceof JobFinished finished) {
            c.status = finished.outcome().id();
            c.jobId = finished.jobId();
            c.planId = finished.planId();
            c.engine = finished.engine().id();
            c.duration = finished.duration();
            c.reason = finished.errorCode();
            c.detail = finished.message() != null ? finished.message()
                    : finished.operationsSucceeded() + " operation(s) succeeded, " + finished.operationsFailed() + " failed";
        } else if (data instanceof JobScored scored) {
            // The promise kept or not: the difference is in the detail, its kind in the reason.
            c.status = "scored";
            c.jobId = scored.jobId();
            c.planId = scored.planId();
            c.operations = fixedOrder(scored.noOpOperations());
            c.reason = scored.noOp() ? "no-op" : scored.actualScore() == null ? "ungraded"
                    : scored.reached() ? "reached" : "short";
            c.detail = scored.message();
        } else {
            throw new IllegalStateException("Cannot audit " + data.getClass().getName() + ": unknown event type");
        }
        String actor = envelope.actor() != null ? envelope.actor() : c.actor;
        return new EventColumns(envelope.type().id(), envelope.source(), data.table().toString(), c.operations, c.engine,
                c.status, c.duration == null ? null : c.duration.toMillis(), actor, c.reason, c.detail,
                envelope.correlationId(), c.jobId, c.planId);
    }

    /** Mutable scratch for {@link #columns}: each event type fills what it carries. */
    private static final class Columns {
        String status;
        String actor;
        String engine;
        String reason;
        String detail;
        String jobId;
        String planId;
        Duration duration;
        List<String> operations = List.of();
    }

    private static List<String> fixedOrder(Collection<Operation> operations) {
        return Operation.inFixedOrder(operations).stream().map(Operation::id).toList();
    }

    private static ConsumerRecord<String, byte[]> toConsumerRecord(RawRecord raw) {
        RecordHeaders headers = new RecordHeaders();
        raw.headers().forEach(header -> headers.add(header.name(), header.value()));
        long timestamp = raw.timestamp() == null ? ConsumerRecord.NO_TIMESTAMP : raw.timestamp().toEpochMilli();
        byte[] value = raw.value();
        return new ConsumerRecord<>(raw.topic(), raw.partition(), raw.offset(), timestamp, TimestampType.CREATE_TIME,
                -1, value == null ? -1 : value.length, raw.key(), value, headers, Optional.empty());
    }

    private static KafkaPosition position(RawRecord raw) {
        return new KafkaPosition(raw.topic(), raw.partition(), raw.offset(), raw.key(), raw.timestamp());
    }

    /** The CloudEvents time when it parses, else the record timestamp: both are fixed by the record, so a rebuild agrees. */
    private static Instant timeOf(RawRecord raw) {
        String time = text(raw, CloudEvents.HEADER_TIME);
        if (time != null) {
            try {
                return OffsetDateTime.parse(time).toInstant();
            } catch (DateTimeParseException e) {
                // an unparsable time is part of what makes the record malformed; the record timestamp stands in
            }
        }
        return raw.timestamp() == null ? Instant.EPOCH : raw.timestamp();
    }

    /** The headers in their order: UTF-8 text as {@code value}, anything else as {@code base64}. */
    static String headersJson(RawRecord raw) {
        ArrayNode array = JSON.createArrayNode();
        for (RecordHeader header : raw.headers()) {
            ObjectNode node = array.addObject();
            node.put("name", header.name());
            byte[] value = header.value();
            if (value == null) {
                node.putNull("value");
            } else {
                String text = utf8(value);
                if (text != null && text.indexOf('\u0000') < 0) {
                    node.put("value", text);
                } else {
                    node.put("base64", Base64.getEncoder().encodeToString(value));
                }
            }
        }
        try {
            return JSON.writeValueAsString(array);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write the headers of " + raw.coordinates() + " as JSON", e);
        }
    }

    /** The headers back from {@link #headersJson}, for re-publication. */
    public static List<RecordHeader> headersFromJson(String json) {
        try {
            List<RecordHeader> headers = new ArrayList<>();
            for (JsonNode node : JSON.readTree(json)) {
                String name = node.path("name").asText();
                if (node.hasNonNull("base64")) {
                    headers.add(new RecordHeader(name, Base64.getDecoder().decode(node.get("base64").asText())));
                } else if (node.hasNonNull("value")) {
                    headers.add(new RecordHeader(name, node.get("value").asText().getBytes(StandardCharsets.UTF_8)));
                } else {
                    headers.add(new RecordHeader(name, null));
                }
            }
            return headers;
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot read stored headers: " + e.getMessage(), e);
        }
    }

    private static boolean isJson(byte[] value) {
        try {
            JsonNode node = JSON.readTree(value);
            return node != null && !node.isMissingNode();
        } catch (IOException e) {
            return false;
        }
    }

    private static String text(RawRecord raw, String name) {
        RecordHeader header = raw.lastHeader(name);
        if (header == null || header.value() == null) {
            return null;
        }
        String text = utf8(header.value());
        return text == null || text.isBlank() ? null : text;
    }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static String describe(RuntimeException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private RecordExtractor() {
    }
}
