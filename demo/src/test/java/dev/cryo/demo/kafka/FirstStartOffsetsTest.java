package dev.cryo.demo.kafka;

import dev.cryo.contracts.Topics;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.Infrastructure.Component;
import dev.cryo.testsupport.KafkaTestClient;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

@NeedsInfrastructure(Component.KAFKA)
class FirstStartOffsetsTest {

    @Test
    void groupsThatNeverRanStartAtTheEndAndGroupsThatRanKeepTheirOffsets() throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String fresh = "cryo-demo-test-fresh-" + suffix;
        String started = "cryo-demo-test-started-" + suffix;
        try (KafkaTestClient kafka = new KafkaTestClient();
             Admin admin = FirstStartOffsets.connect(Infrastructure.kafkaAdminClient())) {
            // earlier traffic: at least one record on a Cryo topic
            kafka.send(new ProducerRecord<>(Topics.TABLE_CHANGED, "not-a-cryo-table-" + suffix,
                    "{}".getBytes(StandardCharsets.UTF_8)));
            TopicPartition first = new TopicPartition(Topics.TABLE_CHANGED, 0);
            admin.alterConsumerGroupOffsets(started, Map.of(first, new OffsetAndMetadata(0))).all().get();
            FirstStartOffsets offsets = new FirstStartOffsets(admin, Duration.ofSeconds(30));
            List<String> topics = offsets.cryoTopics();
            assertThat(topics).contains(Topics.TABLE_CHANGED, Topics.PLANS, Topics.JOBS_RESULTS);
            Map<TopicPartition, Long> ends = kafka.mark(topics.toArray(String[]::new));

            List<FirstStartOffsets.GroupStart> starts = offsets.startAtEnd(List.of(fresh, started), topics);

            assertThat(starts).extracting(FirstStartOffsets.GroupStart::group, FirstStartOffsets.GroupStart::alreadyStarted)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(fresh, false),
                            org.assertj.core.groups.Tuple.tuple(started, true));
            assertThat(starts.get(0).recordsSkipped()).isPositive();
            Map<TopicPartition, OffsetAndMetadata> freshOffsets =
                    admin.listConsumerGroupOffsets(fresh).partitionsToOffsetAndMetadata().get();
            // the mark was taken before the call: nothing published since may be skipped
            ends.forEach((partition, end) -> assertThat(freshOffsets.get(partition).offset())
                    .as(partition.toString()).isGreaterThanOrEqualTo(end));
            assertThat(admin.listConsumerGroupOffsets(started).partitionsToOffsetAndMetadata().get())
                    .containsOnlyKeys(first).extractingByKey(first).extracting(OffsetAndMetadata::offset).isEqualTo(0L);

            List<FirstStartOffsets.GroupStart> again = offsets.startAtEnd(List.of(fresh), topics);
            assertThat(again).extracting(FirstStartOffsets.GroupStart::alreadyStarted).containsExactly(true);
            admin.deleteConsumerGroups(List.of(fresh, started)).all().get();
        }
    }

    @Test
    void aGroupWhoseConsumersRunButNeverCommittedIsLeftAlone() throws Exception {
        String running = "cryo-demo-test-running-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> config = Infrastructure.kafkaAdminClient(Map.of(
                org.apache.kafka.clients.consumer.ConsumerConfig.GROUP_ID_CONFIG, running,
                org.apache.kafka.clients.consumer.ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                org.apache.kafka.clients.consumer.ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest"));
        try (Admin admin = FirstStartOffsets.connect(Infrastructure.kafkaAdminClient());
             var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<>(config,
                     new org.apache.kafka.common.serialization.StringDeserializer(),
                     new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            consumer.subscribe(List.of(Topics.TABLE_CHANGED));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200));
                return !consumer.assignment().isEmpty();
            });
            FirstStartOffsets offsets = new FirstStartOffsets(admin, Duration.ofSeconds(30));

            List<FirstStartOffsets.GroupStart> starts = offsets.startAtEnd(List.of(running), offsets.cryoTopics());

            assertThat(starts).extracting(FirstStartOffsets.GroupStart::alreadyStarted).containsExactly(true);
            assertThat(admin.listConsumerGroupOffsets(running).partitionsToOffsetAndMetadata().get()).isEmpty();
        }
    }
}
