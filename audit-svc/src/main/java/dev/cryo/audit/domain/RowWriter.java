package dev.cryo.audit.domain;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Writes audit rows one at a time to a stream, in an {@link ExportFormat}. It holds no rows: an
 * export of any size needs the memory of one row.
 */
public abstract sealed class RowWriter implements AutoCloseable {

    /** The CSV columns, in order. */
    public static final List<String> CSV_COLUMNS = List.of("id", "recorded_at", "event_time", "event_id", "kind",
            "event_type", "source", "table", "operations", "engine", "status", "duration_ms", "actor", "reason", "detail",
            "correlation_id", "job_id", "plan_id", "kafka_topic", "kafka_partition", "kafka_offset", "kafka_key",
            "kafka_timestamp", "headers", "payload", "raw_value_base64", "prev_hash", "row_hash");

    public static RowWriter of(ExportFormat format, OutputStream out) {
        requireNonNull(out, "out is null");
        return switch (requireNonNull(format, "format is null")) {
            case CSV -> new Csv(out);
            case JSONL -> new JsonLines(out);
        };
    }

    /** Writes one row. */
    public abstract void write(AuditRow row);

    /** Flushes what is buffered (a few kilobytes at most) without closing the stream. */
    @Override
    public abstract void close();

    static final class Csv extends RowWriter {
        private final Writer writer;

        Csv(OutputStream out) {
            this.writer = new OutputStreamWriter(out, StandardCharsets.UTF_8);
            line(CSV_COLUMNS);
        }

        @Override
        public void write(AuditRow row) {
            AuditRecord record = row.record();
            EventColumns columns = record.columns();
            KafkaPosition position = record.position();
            line(List.of(String.valueOf(row.id()), row.recordedAt().toString(), record.eventTime().toString(),
                    record.eventId(), record.kind().id(), text(columns.eventType()), text(columns.source()),
                    text(columns.table()), String.join(" ", columns.operations()), text(columns.engine()),
                    text(columns.status()), columns.durationMillis() == null ? "" : columns.durationMillis().toString(),
                    text(columns.actor()), text(columns.reason()), text(columns.detail()), text(columns.correlationId()),
                    text(columns.jobId()), text(columns.planId()), position.topic(), String.valueOf(position.partition()),
                    String.valueOf(position.offset()), text(position.key()), time(position.timestamp()),
                    record.headersJson(), text(record.payloadJson()),
                    record.rawValue() == null ? "" : Base64.getEncoder().encodeToString(record.rawValue()),
                    row.previousHash(), row.rowHash()));
        }

        private void line(List<String> cells) {
            try {
                for (int i = 0; i < cells.size(); i++) {
                    if (i > 0) {
                        writer.write(',');
                    }
                    writer.write(escape(cells.get(i)));
                }
                writer.write("\r\n");
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write CSV: " + e.getMessage(), e);
            }
        }

        static String escape(String cell) {
            if (cell.indexOf(',') < 0 && cell.indexOf('"') < 0 && cell.indexOf('\n') < 0 && cell.indexOf('\r') < 0) {
                return cell;
            }
            return '"' + cell.replace("\"", "\"\"") + '"';
        }

        private static String text(String value) {
            return value == null ? "" : value;
        }

        private static String time(Instant value) {
            return value == null ? "" : value.toString();
        }

        @Override
        public void close() {
            try {
                writer.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write CSV: " + e.getMessage(), e);
            }
        }
    }

    static final class JsonLines extends RowWriter {
        private final JsonGenerator json;

        JsonLines(OutputStream out) {
            try {
                this.json = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)
                        .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
                json.setRootValueSeparator(null);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write JSON Lines: " + e.getMessage(), e);
            }
        }

        @Override
        public void write(AuditRow row) {
            AuditRecord record = row.record();
            EventColumns columns = record.columns();
            KafkaPosition position = record.position();
            try {
                json.writeStartObject();
                json.writeNumberField("id", row.id());
                json.writeStringField("recordedAt", row.recordedAt().toString());
                json.writeStringField("eventTime", record.eventTime().toString());
                json.writeStringField("eventId", record.eventId());
                json.writeStringField("kind", record.kind().id());
                optional("eventType", columns.eventType());
                optional("source", columns.source());
                optional("table", columns.table());
                if (!columns.operations().isEmpty()) {
                    json.writeArrayFieldStart("operations");
                    for (String operation : columns.operations()) {
                        json.writeString(operation);
                    }
                    json.writeEndArray();
                }
                optional("engine", columns.engine());
                optional("status", columns.status());
                if (columns.durationMillis() != null) {
                    json.writeNumberField("durationMillis", columns.durationMillis());
                }
                optional("actor", columns.actor());
                optional("reason", columns.reason());
                optional("detail", columns.detail());
                optional("correlationId", columns.correlationId());
                optional("jobId", columns.jobId());
                optional("planId", columns.planId());
                json.writeObjectFieldStart("kafka");
                json.writeStringField("topic", position.topic());
                json.writeNumberField("partition", position.partition());
                json.writeNumberField("offset", position.offset());
                optional("key", position.key());
                optional("timestamp", position.timestamp() == null ? null : position.timestamp().toString());
                json.writeEndObject();
                // Both are JSON the database produced: copied, not parsed.
                json.writeFieldName("headers");
                json.writeRawValue(record.headersJson());
                if (record.payloadJson() != null) {
                    json.writeFieldName("payload");
                    json.writeRawValue(record.payloadJson());
                }
                if (record.rawValue() != null) {
                    json.writeStringField("rawValueBase64", Base64.getEncoder().encodeToString(record.rawValue()));
                }
                json.writeStringField("prevHash", row.previousHash());
                json.writeStringField("rowHash", row.rowHash());
                json.writeEndObject();
                json.writeRaw('\n');
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write JSON Lines: " + e.getMessage(), e);
            }
        }

        private void optional(String name, String value) throws IOException {
            if (value != null) {
                json.writeStringField(name, value);
            }
        }

        @Override
        public void close() {
            try {
                json.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write JSON Lines: " + e.getMessage(), e);
            }
        }
    }
}
