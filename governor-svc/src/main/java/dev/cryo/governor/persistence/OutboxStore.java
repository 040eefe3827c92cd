package dev.cryo.governor.persistence;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.json.EventJson;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import static dev.cryo.governor.persistence.Jdbc.instant;

/**
 * Events decided but perhaps not yet published. A decision writes its events here in its own
 * transaction; the relay publishes them and marks them, so a governor that stops in between
 * loses nothing and admits nothing twice. Callers hold a transaction. Plain JDBC: one relay at a time
 * by a try-advisory lock, events stored once ({@code ON CONFLICT DO NOTHING}).
 */
@ApplicationScoped
public class OutboxStore {

    /** An event waiting for publication, in decision order. */
    public record Pending(long sequence, EventEnvelope<CryoEvent> envelope) {
    }

    private final Jdbc jdbc;
    private final String source;

    OutboxStore(Jdbc jdbc, dev.cryo.platform.config.ServiceInstance instance) {
        this.jdbc = jdbc;
        this.source = instance.source();
    }

    /** Adds an event; an event with the same id added before is kept as it was (ids derive from the input). */
    public void append(EventEnvelope<?> envelope) {
        jdbc.update("INSERT INTO outbox (event_id, event_type, subject, correlation_id, actor, event_time, payload) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING",
                envelope.id(), envelope.type().id(), envelope.subject(), envelope.correlationId(), envelope.actor(),
                envelope.time(), new String(EventJson.write(envelope.data()), StandardCharsets.UTF_8));
    }

    /**
     * Takes the relay's turn, across instances, until the transaction ends: one relay at a time
     * publishes, so events leave in the order they were decided. Never waits: while another
     * instance relays (which can last as long as the broker takes to acknowledge), the caller
     * skips its turn instead of stalling the decisions that share its thread; the rows wait for
     * the next pass of either instance.
     *
     * @return whether this transaction has the turn
     */
    public boolean takeTurn() {
        return jdbc.queryOne("SELECT pg_try_advisory_xact_lock(hashtextextended(current_schema() || '/outbox', 0)) AS taken",
                row -> row.getBoolean("taken")).orElse(false);
    }

    public List<Pending> pending(int limit) {
        return jdbc.query("SELECT sequence, event_id, event_type, subject, correlation_id, actor, event_time, payload "
                + "FROM outbox WHERE published_at IS NULL ORDER BY sequence LIMIT ?", row -> {
                    String typeId = row.getString("event_type");
                    String eventId = row.getString("event_id");
                    EventType type = EventType.fromId(typeId).orElseThrow(() ->
                            new IllegalStateException("outbox event " + eventId + " has unknown type " + typeId));
                    CryoEvent data = EventJson.read(row.getString("payload").getBytes(StandardCharsets.UTF_8),
                            type.payloadType());
                    return new Pending(row.getLong("sequence"), new EventEnvelope<>(row.getString("event_id"), type,
                            source, instant(row, "event_time"), row.getString("subject"),
                            row.getString("correlation_id"), row.getString("actor"), data));
                }, limit);
    }

    public void published(List<Long> sequences, Instant at) {
        for (Long sequence : sequences) {
            jdbc.update("UPDATE outbox SET published_at = ? WHERE sequence = ?", at, sequence);
        }
    }

    public long pendingCount() {
        return jdbc.queryOne("SELECT count(*) AS pending FROM outbox WHERE published_at IS NULL",
                row -> row.getLong("pending")).orElse(0L);
    }
}
