package dev.cryo.contracts;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Every Kafka topic of Cryo, named once. Services use these constants as channel names, so
 * no topic name appears as a string literal anywhere else.
 *
 * <p>Size limits: the largest record is a {@code TableScanned} of a table with many partitions
 * (or a plan embedding its chunks). {@code TableScannedSizeTest} measures one with 10 000
 * partitions; {@link #MAX_RECORD_BYTES} leaves room for several times that after zstd.
 */
public final class Topics {

    public static final String TABLE_CHANGED = "cryo.table-changed.v1";
    public static final String TABLE_SCANNED = "cryo.table-scanned.v1";
    public static final String TABLE_HEALTH = "cryo.table-health.v1";
    public static final String GRADE_CHANGES = "cryo.grade-changes.v1";
    public static final String PLANS = "cryo.plans.v1";
    public static final String JOBS_ADMITTED = "cryo.jobs.admitted.v1";
    public static final String JOBS_DEFERRED = "cryo.jobs.deferred.v1";
    public static final String JOBS_RESULTS = "cryo.jobs.results.v1";
    public static final String REPLAY = "cryo.replay.v1";
    /**
     * The audit chain's head, anchored outside the database every minute (compacted, keyed by the
     * audit's schema): whoever holds the database can re-chain rewritten rows, but not move the
     * anchors, so verify finds the rewrite.
     */
    public static final String AUDIT_ANCHORS = "cryo.audit-anchors.v1";

    /** Upper bound of one record, after compression (producer {@code max.request.size}, topic {@code max.message.bytes}). */
    public static final int MAX_RECORD_BYTES = 8 * 1024 * 1024;

    /** Producer compression for every Cryo topic: JSON of partition statistics compresses about tenfold. */
    public static final String COMPRESSION = "zstd";

    private static final long DAY_MS = 24L * 60 * 60 * 1000;

    /** A topic with its partition count and topic-level configuration. */
    public record Spec(String name, int partitions, Map<String, String> configs) {
        public Spec {
            requireNonNull(name, "name is null");
            if (partitions < 1) {
                throw new IllegalArgumentException("Cannot define topic " + name + ": partitions must be at least 1");
            }
            configs = Map.copyOf(configs);
        }
    }

    /** The dead-letter topic of a consuming service, e.g. {@code cryo.dlq.scanner.v1}. */
    public static String deadLetter(String service) {
        requireNonNull(service, "service is null");
        if (!service.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("Cannot name dead-letter topic: service '" + service
                    + "' must be lower-case letters, digits and '-'");
        }
        return "cryo.dlq." + service + ".v1";
    }

    /** The services that consume topics and therefore own a dead-letter topic. */
    public static final List<String> CONSUMING_SERVICES =
            List.of("scanner", "scorer", "planner", "governor", "executor", "audit");

    /**
     * Every topic with its partitions. Keys are table ids, so partitions bound the parallelism
     * of one consumer group: executors beyond {@code cryo.jobs.admitted.v1}'s partition count sit idle.
     */
    public static List<Spec> all() {
        Map<String, String> events = Map.of(
                "max.message.bytes", String.valueOf(MAX_RECORD_BYTES),
                "retention.ms", String.valueOf(7 * DAY_MS));
        Map<String, String> longLived = Map.of(
                "max.message.bytes", String.valueOf(MAX_RECORD_BYTES),
                "retention.ms", String.valueOf(30 * DAY_MS));
        List<Spec> main = List.of(
                new Spec(TABLE_CHANGED, 6, events),
                new Spec(TABLE_SCANNED, 6, events),
                new Spec(TABLE_HEALTH, 6, events),
                new Spec(GRADE_CHANGES, 3, longLived),
                new Spec(PLANS, 6, events),
                new Spec(JOBS_ADMITTED, 12, events),
                new Spec(JOBS_DEFERRED, 3, events),
                new Spec(JOBS_RESULTS, 6, events),
                new Spec(REPLAY, 3, events),
                new Spec(AUDIT_ANCHORS, 1, Map.of("cleanup.policy", "compact", "max.message.bytes", "1048576")));
        List<Spec> deadLetters = CONSUMING_SERVICES.stream()
                .map(service -> new Spec(deadLetter(service), 1, longLived))
                .toList();
        return java.util.stream.Stream.concat(main.stream(), deadLetters.stream()).toList();
    }

    private Topics() {
    }
}
