package dev.cryo.demo.kafka;

import dev.cryo.contracts.Topics;
import org.apache.kafka.clients.admin.Admin;
import dev.cryo.contracts.kafka.KafkaClientSecurity;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.util.Objects.requireNonNull;

/**
 * Where Cryo's consumer groups start the first time they run. Cryo's consumers read from the
 * earliest retained record when their group has no committed offset, which is right on a
 * broker of their own: nothing is missed between start-up and the first poll. On a broker that
 * already carries other traffic on Cryo's topics (a CI machine whose tests published thousands
 * of events), a demo would first work through all of it. This sets the offsets of the groups
 * that have none yet to the current end of every Cryo topic, before the services start, so
 * they begin with what happens from now on and still miss nothing of it. Groups that already
 * committed offsets are never touched.
 */
public final class FirstStartOffsets {

    /** What was done for one group. */
    public record GroupStart(String group, boolean alreadyStarted, long recordsSkipped) {
    }

    private final Admin admin;
    private final Duration timeout;

    public FirstStartOffsets(Admin admin, Duration timeout) {
        this.admin = requireNonNull(admin, "admin is null");
        this.timeout = requireNonNull(timeout, "timeout is null");
    }

    /** An administrator's connection with the environment's security ({@link KafkaClientSecurity}; ./cryo gives cryo-admin's). */
    public static Admin connect(String bootstrapServers) {
        Map<String, Object> settings = KafkaClientSecurity.fromEnvironment().applyTo(new HashMap<>());
        settings.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return connect(settings);
    }

    /** An administrator's connection with the given client settings (bootstrap servers and security). */
    public static Admin connect(Map<String, Object> connection) {
        Map<String, Object> settings = new HashMap<>(connection);
        settings.put(AdminClientConfig.CLIENT_ID_CONFIG, "cryo-demo-first-start");
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        return Admin.create(settings);
    }

    /** Cryo's topics that exist on the broker (the event topics, the replay topic and the dead letters). */
    public List<String> cryoTopics() {
        Set<String> existing = get(admin.listTopics().names());
        return Topics.all().stream().map(Topics.Spec::name).filter(existing::contains).sorted().toList();
    }

    /**
     * Sets each group that has no committed offset and no member to the end of {@code topics}. A
     * group with members runs already (its consumers chose their positions), so it is left alone.
     */
    public List<GroupStart> startAtEnd(List<String> groups, List<String> topics) {
        Map<TopicPartition, Long> ends = endOffsets(topics);
        long records = ends.values().stream().mapToLong(Long::longValue).sum();
        List<GroupStart> starts = new ArrayList<>();
        for (String group : groups) {
            Map<TopicPartition, OffsetAndMetadata> committed =
                    get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
            if (!committed.isEmpty() || hasMembers(group)) {
                starts.add(new GroupStart(group, true, 0));
                continue;
            }
            if (records > 0) {
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                ends.forEach((partition, end) -> offsets.put(partition, new OffsetAndMetadata(end,
                        "cryo demo: first start begins at the end of the topic")));
                get(admin.alterConsumerGroupOffsets(group, offsets).all());
            }
            starts.add(new GroupStart(group, false, records));
        }
        return starts;
    }

    private boolean hasMembers(String group) {
        try {
            ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return !description.members().isEmpty();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                // Kafka 4 knows no group before its first member or commit: it never ran
                return false;
            }
            throw new IllegalStateException("Cannot describe consumer group " + group + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Cannot describe consumer group " + group + ": interrupted", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Cannot describe consumer group " + group + ": Kafka did not answer within " + timeout, e);
        }
    }

    private Map<TopicPartition, Long> endOffsets(List<String> topics) {
        Map<String, TopicDescription> descriptions = get(admin.describeTopics(topics).allTopicNames());
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        descriptions.values().forEach(description -> description.partitions().forEach(partition ->
                request.put(new TopicPartition(description.name(), partition.partition()), OffsetSpec.latest())));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result = get(admin.listOffsets(request).all());
        Map<TopicPartition, Long> ends = new HashMap<>();
        result.forEach((partition, info) -> ends.put(partition, info.offset()));
        return ends;
    }

    private <T> T get(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Cannot set the first-start offsets: interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot set the first-start offsets: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Cannot set the first-start offsets: Kafka did not answer within " + timeout, e);
        }
    }
}
