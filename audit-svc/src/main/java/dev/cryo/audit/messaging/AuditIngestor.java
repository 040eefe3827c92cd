package dev.cryo.audit.messaging;

import dev.cryo.audit.AuditErrorCode;
import dev.cryo.audit.config.AuditConfig;
import dev.cryo.audit.domain.AuditRecord;
import dev.cryo.audit.domain.RawRecord;
import dev.cryo.audit.persistence.AuditStore;
import dev.cryo.audit.persistence.AuditStore.AppendResult;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.platform.error.CryoException;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Stores batches of Kafka records in the audit log. Nothing is skipped: a database that is away is
 * waited for (with backoff, for as long as it takes; Kafka keeps the records meanwhile), and a
 * record whose payload the database refuses as JSON is stored as raw bytes with the reason.
 */
@ApplicationScoped
public class AuditIngestor {

    private final AuditStore store;
    private final IngestLag lag;
    private final MeterRegistry registry;
    private final Clock clock;
    private final Duration firstBackoff;
    private final Duration maxBackoff;

    AuditIngestor(AuditStore store, IngestLag lag, MeterRegistry registry, Clock clock, AuditConfig config) {
        this.store = store;
        this.lag = lag;
        this.registry = registry;
        this.clock = clock;
        this.firstBackoff = config.ingest().firstBackoff();
        this.maxBackoff = config.ingest().maxBackoff();
    }

    /**
     * Stores the records (in their order) and returns what was stored.
     *
     * @throws CryoException when the database refuses for a reason no retry cures (a missing grant)
     */
    public AppendResult ingest(List<RawRecord> records) {
        List<AuditRecord> audit = records.stream().map(RecordExtractor::extract).toList();
        AppendResult result = appendPatiently(audit);
        for (AuditRecord stored : result.stored()) {
            registry.counter("cryo.audit.events.ingested", "type", typeTag(stored.columns().eventType()),
                    "kind", stored.kind().id()).increment();
            if (stored.position().timestamp() != null) {
                registry.timer("cryo.audit.ingest.delay", "topic", stored.position().topic())
                        .record(Duration.between(stored.position().timestamp(), clock.instant()));
            }
        }
        if (result.duplicates() > 0) {
            registry.counter("cryo.audit.events.duplicates").increment(result.duplicates());
        }
        records.forEach(raw -> lag.stored(raw.topic(), raw.partition(), raw.offset()));
        return result;
    }

    private AppendResult appendPatiently(List<AuditRecord> records) {
        Duration backoff = firstBackoff;
        for (int attempt = 1; ; attempt++) {
            try {
                return appendOrIsolate(records);
            } catch (CryoException e) {
                if (!e.isRetryable()) {
                    throw e;
                }
                Log.warnf("Attempt %d to store %d audit row(s) failed, retrying in %s: %s", attempt, records.size(),
                        backoff, e.getMessage());
                registry.counter("cryo.audit.ingest.retries").increment();
                sleep(backoff);
                backoff = backoff.multipliedBy(2).compareTo(maxBackoff) > 0 ? maxBackoff : backoff.multipliedBy(2);
            }
        }
    }

    /** The whole batch at once; when the database refuses a row, each record on its own to find which. */
    private AppendResult appendOrIsolate(List<AuditRecord> records) {
        try {
            return store.append(records);
        } catch (CryoException e) {
            if (e.code() != AuditErrorCode.ROW_REFUSED || records.size() == 1 && records.get(0).payloadJson() == null) {
                throw e;
            }
        }
        List<AuditRecord> stored = new ArrayList<>();
        int duplicates = 0;
        long lastId = 0;
        for (AuditRecord record : records) {
            AppendResult one;
            try {
                one = store.append(List.of(record));
            } catch (CryoException e) {
                if (e.code() != AuditErrorCode.ROW_REFUSED || record.payloadJson() == null) {
                    throw e;
                }
                Log.warnf("Storing %s as raw bytes: %s", record.eventId(), e.getMessage());
                one = store.append(List.of(record.asUnstorableJson(e.getMessage())));
            }
            stored.addAll(one.stored());
            duplicates += one.duplicates();
            lastId = Math.max(lastId, one.lastId());
        }
        return new AppendResult(stored, duplicates, lastId);
    }

    /** Event types are a closed set; anything else (a foreign or newer type) is counted as "other" to bound the tags. */
    private static String typeTag(String eventType) {
        if (eventType == null) {
            return "none";
        }
        return EventType.fromId(eventType).map(EventType::id).orElse("other");
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CryoException(AuditErrorCode.STORE_UNAVAILABLE, "Cannot store audit rows: interrupted while waiting "
                    + "for the database", e);
        }
    }
}
