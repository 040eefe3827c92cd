package dev.cryo.console.domain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.console.client.AuditApi.AuditEvent;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.json.EventJson;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table's audit events as the table page shows them: one chain per table change (the events that share
 * its correlation id: change → scan → grade → plan → admit or defer → job → result), newest chain first,
 * each chain oldest event first. Heartbeats are counted, not listed.
 */
public final class AuditTimeline {

    /** Event type of the heartbeats that running jobs send every few seconds. */
    static final String HEARTBEAT = "dev.cryo.job.heartbeat.v1";
    /** Event type of an operation's result, with files before and after. */
    static final String OPERATION_FINISHED = "dev.cryo.operation.finished.v1";

    /**
     * One table change and what followed from it.
     *
     * @param correlationId the TableChanged that started it (null: events that carry none)
     * @param actor who asked, when an operator did ("fix now")
     * @param heartbeats job heartbeats in the chain, not listed
     */
    public record Chain(String correlationId, String actor, List<Entry> entries, int heartbeats) {
        public Chain {
            entries = List.copyOf(entries);
        }

        public Instant startedAt() {
            return entries.isEmpty() ? null : entries.get(0).at();
        }

        /** The stages the chain reached, in order, e.g. {@code change → scan → grade → plan}. */
        public String stages() {
            return String.join(" → ", entries.stream().map(Entry::stage).distinct().toList());
        }
    }

    /** One event of a chain. */
    public record Entry(Instant at, String stage, String type, String detail, String status, String reason,
                        String actor, String kind) {
        /** The short type: {@code table.graded} for {@code dev.cryo.table.graded.v1}. */
        public String shortType() {
            if (type == null) {
                return kind;
            }
            String shortened = type.startsWith("dev.cryo.") ? type.substring("dev.cryo.".length()) : type;
            return shortened.endsWith(".v1") ? shortened.substring(0, shortened.length() - 3) : shortened;
        }

        public boolean failed() {
            return "failed".equals(status) || "dead-letter".equals(kind) || "malformed".equals(kind)
                    || "failed-delivery".equals(stage);
        }
    }

    /** Groups events (in any order) into chains. */
    public static List<Chain> of(List<AuditEvent> events) {
        Map<String, List<AuditEvent>> byChain = new LinkedHashMap<>();
        for (AuditEvent event : events) {
            byChain.computeIfAbsent(event.correlationId() == null ? "" : event.correlationId(),
                    id -> new ArrayList<>()).add(event);
        }
        List<Chain> chains = new ArrayList<>();
        for (Map.Entry<String, List<AuditEvent>> chain : byChain.entrySet()) {
            List<AuditEvent> ordered = chain.getValue().stream()
                    .sorted(Comparator.comparing(AuditTimeline::time).thenComparingLong(AuditEvent::id)).toList();
            int heartbeats = (int) ordered.stream().filter(event -> HEARTBEAT.equals(event.eventType())).count();
            List<Entry> entries = ordered.stream().filter(event -> !HEARTBEAT.equals(event.eventType()))
                    .map(event -> new Entry(time(event), event.stage(), event.eventType(), event.detail(),
                            event.status(), event.reason(), event.actor(), event.kind()))
                    .toList();
            String actor = ordered.stream().map(AuditEvent::actor).filter(a -> a != null && !a.isBlank())
                    .findFirst().orElse(null);
            chains.add(new Chain(chain.getKey().isEmpty() ? null : chain.getKey(), actor, entries, heartbeats));
        }
        chains.sort(Comparator.comparing((Chain chain) -> chain.entries().isEmpty() ? Instant.EPOCH
                : chain.entries().get(chain.entries().size() - 1).at()).reversed());
        return chains;
    }

    /**
     * The OperationFinished results among the events, and the rows whose payload does not read as one
     * (another version of the contract): the page names those instead of hiding them.
     */
    public record Results(List<OperationFinished> finished, List<String> unreadable) {
        public Results {
            finished = List.copyOf(finished);
            unreadable = List.copyOf(unreadable);
        }
    }

    public static Results operationResults(List<AuditEvent> events) {
        List<OperationFinished> results = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        for (AuditEvent event : events) {
            if (!OPERATION_FINISHED.equals(event.eventType())) {
                continue;
            }
            JsonNode payload = event.payload();
            if (payload == null || !payload.isObject()) {
                unreadable.add("audit row " + event.id() + ": no JSON payload");
                continue;
            }
            try {
                results.add(EventJson.mapper().treeToValue(payload, OperationFinished.class));
            } catch (JsonProcessingException | IllegalArgumentException e) {
                unreadable.add("audit row " + event.id() + ": " + e.getMessage().lines().findFirst().orElse(""));
            }
        }
        return new Results(results, unreadable);
    }

    private static Instant time(AuditEvent event) {
        return event.eventTime() != null ? event.eventTime() : event.recordedAt();
    }

    private AuditTimeline() {
    }
}
