package dev.cryo.audit.domain;

import dev.cryo.contracts.Topics;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The topics the audit ingests, and the consumer group family each belongs to. Everything comes
 * from contracts' {@link Topics}: every topic but {@link Topics#REPLAY} (re-published events would
 * come back in a loop), the dead-letter topics included.
 */
public final class AuditTopics {

    /** The channel that reads every dead-letter topic (one channel, its {@code topics} listed in config). */
    public static final String DEAD_LETTER_CHANNEL = "audit-dead-letters";

    /** The family of the dead-letter topics. */
    public static final String DEAD_LETTER_FAMILY = "dead-letters";

    private static final Map<String, String> FAMILIES = Map.of(
            Topics.TABLE_CHANGED, "changes",
            Topics.TABLE_SCANNED, "scans",
            Topics.TABLE_HEALTH, "grades",
            Topics.GRADE_CHANGES, "grades",
            Topics.PLANS, "plans",
            Topics.JOBS_ADMITTED, "jobs",
            Topics.JOBS_DEFERRED, "jobs",
            Topics.JOBS_RESULTS, "jobs");

    /** The event topics, each read by a channel of the same name. */
    public static List<String> eventTopics() {
        return Topics.all().stream().map(Topics.Spec::name)
                .filter(name -> !name.equals(Topics.REPLAY) && !name.equals(Topics.AUDIT_ANCHORS) && !isDeadLetter(name))
                .toList();
    }

    /** The dead-letter topics of every consuming service, the audit's own included. */
    public static List<String> deadLetterTopics() {
        return Topics.CONSUMING_SERVICES.stream().map(Topics::deadLetter).toList();
    }

    /** Every topic the audit reads. */
    public static List<String> all() {
        return java.util.stream.Stream.concat(eventTopics().stream(), deadLetterTopics().stream()).toList();
    }

    public static boolean isDeadLetter(String topic) {
        return deadLetterTopics().contains(requireNonNull(topic, "topic is null"));
    }

    /**
     * The consumer-group family of a topic: {@code changes}, {@code scans}, {@code grades}, {@code plans},
     * {@code jobs} or {@code dead-letters}. A topic that contracts gained after this mapping was written
     * gets a family of its own, named after it, rather than none.
     */
    public static String family(String topic) {
        if (isDeadLetter(topic)) {
            return DEAD_LETTER_FAMILY;
        }
        String family = FAMILIES.get(topic);
        return family != null ? family : topic.replaceAll("^cryo\\.|\\.v\\d+$", "").replace('.', '-');
    }

    /** The channel that reads a topic. */
    public static String channel(String topic) {
        return isDeadLetter(topic) ? DEAD_LETTER_CHANNEL : topic;
    }

    private AuditTopics() {
    }
}
