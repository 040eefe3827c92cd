package dev.cryo.contracts.kafka;

import dev.cryo.contracts.Topics;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Who may do what on Cryo's Kafka: one SCRAM principal per service ({@code cryo-<service>}) and the
 * topics it reads and writes, from which the local broker's ACLs ({@code ./cryo infra up}), Compose's and
 * Strimzi's {@code KafkaUser}s are made. The one rule everything else serves: only the governor writes
 * {@value Topics#JOBS_ADMITTED}, the command channel that makes executors rewrite and delete files, and
 * only executors and the planner's score checks write {@value Topics#JOBS_RESULTS}.
 *
 * <p>A service writes what it produces, its own dead-letter topic, and the topics it consumes, so that an
 * operator can re-drive its dead letters; admitted jobs and job results are never re-driven (a dead-lettered
 * job is re-planned once its lease expires), and no service writes another's dead letters. Consumer groups
 * are the service's name and what follows it ({@code cryo-executor}, {@code cryo-executor-revocations},
 * {@code cryo-audit-jobs}).
 *
 * <p>{@link #ADMIN} creates topics and principals and is the broker's super user; tools that read
 * everything (the bench's event tap, tests) use it, never a service.
 */
public final class KafkaPrincipals {

    /** The broker's super user: topic and principal administration, tools and tests. */
    public static final String ADMIN = "cryo-admin";
    /** The Iceberg commit reporter that writers load ({@code dev.cryo.reporter.KafkaCommitReporter}). */
    public static final String REPORTER = "cryo-reporter";

    /** Topics and groups one principal may use. */
    public record Principal(String name, Set<String> reads, Set<String> writes, String groupPrefix) {

        public Principal {
            reads = Set.copyOf(reads);
            writes = Set.copyOf(writes);
        }

        public boolean mayRead(String topic) {
            return reads.contains(topic);
        }

        public boolean mayWrite(String topic) {
            return writes.contains(topic);
        }
    }

    private static final Set<String> NEVER_REDRIVEN = Set.of(Topics.JOBS_ADMITTED, Topics.JOBS_RESULTS);

    /** The principal name of a service: {@code cryo-<service>}. */
    public static String of(String service) {
        return "cryo-" + service;
    }

    /** Every service's principal and the reporter's, by name. */
    public static Map<String, Principal> all() {
        List<String> mainTopics = Topics.all().stream().map(Topics.Spec::name)
                .filter(topic -> !Topics.CONSUMING_SERVICES.stream().map(Topics::deadLetter).toList().contains(topic))
                .toList();
        List<String> deadLetters = Topics.CONSUMING_SERVICES.stream().map(Topics::deadLetter).toList();
        List<String> auditReads = Stream.concat(
                mainTopics.stream().filter(topic -> !topic.equals(Topics.REPLAY) && !topic.equals(Topics.AUDIT_ANCHORS)),
                deadLetters.stream()).toList();
        return Stream.of(
                        service("scanner", List.of(Topics.TABLE_CHANGED, Topics.JOBS_RESULTS),
                                List.of(Topics.TABLE_CHANGED, Topics.TABLE_SCANNED)),
                        service("scorer", List.of(Topics.TABLE_SCANNED),
                                List.of(Topics.TABLE_HEALTH, Topics.GRADE_CHANGES)),
                        service("planner", List.of(Topics.TABLE_SCANNED, Topics.TABLE_HEALTH, Topics.JOBS_RESULTS),
                                List.of(Topics.PLANS, Topics.JOBS_RESULTS)),
                        service("governor", List.of(Topics.PLANS, Topics.JOBS_RESULTS),
                                List.of(Topics.JOBS_ADMITTED, Topics.JOBS_DEFERRED)),
                        service("executor", List.of(Topics.JOBS_ADMITTED),
                                List.of(Topics.JOBS_RESULTS)),
                        // The audit re-reads its own anchors at start; it re-publishes history on the replay topic.
                        service("audit", Stream.concat(auditReads.stream(), Stream.of(Topics.AUDIT_ANCHORS)).toList(),
                                List.of(Topics.AUDIT_ANCHORS, Topics.REPLAY)),
                        new Principal(REPORTER, Set.of(), Set.of(Topics.TABLE_CHANGED), REPORTER))
                .collect(Collectors.toMap(Principal::name, Function.identity(), (a, b) -> a,
                        java.util.LinkedHashMap::new));
    }

    /** A service's principal; fails naming the known services when there is none. */
    public static Principal forService(String service) {
        Principal principal = all().get(of(service));
        if (principal == null) {
            throw new IllegalArgumentException("No Kafka principal for service '" + service + "': known are "
                    + new TreeSet<>(all().keySet()));
        }
        return principal;
    }

    private static Principal service(String service, List<String> reads, List<String> produces) {
        Set<String> writes = new LinkedHashSet<>(produces);
        writes.add(Topics.deadLetter(service));
        reads.stream().filter(topic -> !NEVER_REDRIVEN.contains(topic))
                .filter(topic -> !topic.startsWith("cryo.dlq."))
                .forEach(writes::add);
        Set<String> allReads = new LinkedHashSet<>(reads);
        allReads.add(Topics.deadLetter(service));
        return new Principal(of(service), allReads, writes, of(service));
    }

    private KafkaPrincipals() {
    }
}
