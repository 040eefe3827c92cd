package dev.cryo.executor;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobResult;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.testsupport.KafkaTestClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Jobs built by hand, as the governor would admit them, and their results read back from Kafka. */
public final class Jobs {

    /** A partition-scoped operation with one chunk per list of predicates. */
    public static PlannedOperation chunked(Operation operation, OperationParameters parameters,
                                           List<List<PartitionPredicate>> chunks) {
        List<Chunk> planned = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            planned.add(new Chunk(i, chunks.get(i), Estimate.ZERO));
        }
        return new PlannedOperation(operation, List.of(Check.SMALL_FILES), planned, parameters, Estimate.ZERO);
    }

    public static PlannedOperation whole(Operation operation, OperationParameters parameters) {
        return new PlannedOperation(operation, List.of(Check.SNAPSHOT_COUNT), List.of(), parameters, Estimate.ZERO);
    }

    public static EventEnvelope<JobAdmitted> admitted(TableId table, String jobId, List<PlannedOperation> operations) {
        return admitted(table, jobId, Engine.NATIVE, operations);
    }

    /** A job the governor admitted for that engine. */
    public static EventEnvelope<JobAdmitted> admitted(TableId table, String jobId, Engine engine,
                                                      List<PlannedOperation> operations) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return admitted(table, jobId, engine, operations, now, now.plusSeconds(300));
    }

    /** A job the governor admitted at that time, with that lease. */
    public static EventEnvelope<JobAdmitted> admitted(TableId table, String jobId, Engine engine,
                                                      List<PlannedOperation> operations, Instant admittedAt,
                                                      Instant leaseExpiresAt) {
        String planId = "plan-" + UUID.randomUUID();
        MaintenancePlanned plan = new MaintenancePlanned(planId, table, "scan-1", null, null, admittedAt, 40, Grade.D, 90,
                operations, Estimate.ZERO, null, null);
        JobAdmitted job = new JobAdmitted(jobId, planId, table, engine, 0, admittedAt, leaseExpiresAt,
                "governor-test", plan);
        return EventEnvelope.startChain(job, "/cryo/governor", admittedAt).withActor("operator:test");
    }

    /** Results of one job, read after the mark until its JobFinished arrives. */
    public static List<EventEnvelope<CryoEvent>> resultsUntilFinished(KafkaTestClient kafka,
                                                                      Map<TopicPartition, Long> mark, String jobId,
                                                                      Duration timeout) {
        List<ConsumerRecord<String, byte[]>> records = kafka.readAfter(mark, timeout, read -> read.stream()
                .map(Jobs::decode).anyMatch(envelope -> envelope.data() instanceof JobFinished finished
                        && finished.jobId().equals(jobId)));
        return records.stream().map(Jobs::decode)
                .filter(envelope -> envelope.data() instanceof JobResult result && result.jobId().equals(jobId))
                .toList();
    }

    public static Map<TopicPartition, Long> markResults(KafkaTestClient kafka) {
        return kafka.mark(Topics.JOBS_RESULTS);
    }

    private static EventEnvelope<CryoEvent> decode(ConsumerRecord<String, byte[]> record) {
        return KafkaEnvelopes.fromRecord(record);
    }

    private Jobs() {
    }
}
