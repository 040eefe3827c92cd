package dev.cryo.governor.app;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.json.MalformedEventException;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.testsupport.KafkaTestClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/** The governor's topics as a test sees them: send events, wait for the governor's answers. */
public final class Broker implements AutoCloseable {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private final KafkaTestClient kafka = new KafkaTestClient();

    /** The ends of the governor's output topics now: read after it to see only what comes next. */
    public Map<TopicPartition, Long> mark() {
        return kafka.mark(Topics.JOBS_ADMITTED, Topics.JOBS_DEFERRED);
    }

    public void send(EventEnvelope<?> envelope) {
        kafka.send(KafkaEnvelopes.toRecord(envelope));
    }

    /** Waits for a JobAdmitted after the mark that matches. */
    public EventEnvelope<CryoEvent> admitted(Map<TopicPartition, Long> mark, Predicate<JobAdmitted> matches) {
        return await(mark, event -> event instanceof JobAdmitted admitted && matches.test(admitted));
    }

    /** Waits for a JobDeferred after the mark that matches. */
    public EventEnvelope<CryoEvent> deferred(Map<TopicPartition, Long> mark, Predicate<JobDeferred> matches) {
        return await(mark, event -> event instanceof JobDeferred deferred && matches.test(deferred));
    }

    /** Every governor event after the mark that matches, once {@code until} holds for them. */
    public List<EventEnvelope<CryoEvent>> collect(Map<TopicPartition, Long> mark, Predicate<CryoEvent> matches,
                                                  Predicate<List<EventEnvelope<CryoEvent>>> until) {
        List<ConsumerRecord<String, byte[]>> records = kafka.readAfter(mark, WAIT,
                read -> until.test(decode(read, matches)));
        return decode(records, matches);
    }

    private EventEnvelope<CryoEvent> await(Map<TopicPartition, Long> mark, Predicate<CryoEvent> matches) {
        return collect(mark, matches, found -> !found.isEmpty()).get(0);
    }

    private static List<EventEnvelope<CryoEvent>> decode(List<ConsumerRecord<String, byte[]>> records,
                                                         Predicate<CryoEvent> matches) {
        return records.stream().map(Broker::read).flatMap(Optional::stream)
                .filter(envelope -> matches.test(envelope.data())).toList();
    }

    private static Optional<EventEnvelope<CryoEvent>> read(ConsumerRecord<String, byte[]> record) {
        try {
            return Optional.of(KafkaEnvelopes.fromRecord(record));
        } catch (MalformedEventException e) {
            // Other tests share these topics; what is not an event is not ours.
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        kafka.close();
    }
}
