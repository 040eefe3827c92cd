package dev.cryo.audit.messaging;

import dev.cryo.audit.domain.AuditTopics;
import dev.cryo.audit.domain.RawRecord;
import dev.cryo.contracts.Topics;
import io.quarkus.logging.Log;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordBatchMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * One consumer per event topic (channel = topic) and one for every dead-letter topic. Records come
 * in batches (one poll) as raw bytes: the audit keeps what was published, byte for byte, and reads
 * the CloudEvents headers itself. A batch is acknowledged once it is committed to the database; a
 * record too large to be held with its batch ({@link DetachedBytesDeserializer}) is read again and
 * stored alone, in its place in the batch's order.
 */
@ApplicationScoped
public class AuditConsumers {

    private final AuditIngestor ingestor;
    private final LargeValues largeValues;

    AuditConsumers(AuditIngestor ingestor, LargeValues largeValues) {
        this.ingestor = ingestor;
        this.largeValues = largeValues;
    }

    @Incoming(Topics.TABLE_CHANGED)
    @Blocking
    public CompletionStage<Void> tableChanged(KafkaRecordBatch<String, byte[]> batch) {
        return ingest(batch);
    }

    @Incoming(Topics.TABLE_SCANNED)
    @Blocking
    public CompletionStage<Void> tableScanned(KafkaRecordBatch<String, byte[]> batch) {
        return ingest(batch);
    }

    @Incoming(Topics.TABLE_HEALTH)
    @Blocking
    public CompletionStage<Void> tableHealth(KafkaRecordBatch<String, byte[]> batch) {
        return ingest(batch);
    }

    @Incoming(Topics.GRADE_CHANGES)
    @Blocking
    public CompletionStage<Void> gradeChanges(KafkaRecordBatch<String, byte[]> batch) {
        return ingest(batch);
    }

    @Incoming(Topics.PLANS)
    @Blocking
    public CompletionStage<Void> plans(KafkaRecordBatch<String, byte[]> batch) {
        return ingest(batch);
    }

    @Incoming(Topics.JOBS_ADMITTED)
    @Blocking
    public CompletionStage<Void> jobsAdmitted(KafkaRecordBatch<String, byte[]> batch) {
        return ingest(batch);
    }

    @Incoming(Topics.JOBS_DEFERRED)
    @Blocking
    public CompletionStage<Void> jobsDeferred(KafkaRecordBatch<String, byte[]> batch) {
        return ingest(batch);
    }

    @Incoming(Topics.JOBS_RESULTS)
    @Blocking
    public CompletionStage<Void> jobsResults(KafkaRecordBatch<String, byte[]> batch) {
        return ingest(batch);
    }

    @Incoming(AuditTopics.DEAD_LETTER_CHANNEL)
    @Blocking
    public CompletionStage<Void> deadLetters(KafkaRecordBatch<String, byte[]> batch) {
        return ingest(batch);
    }

    private CompletionStage<Void> ingest(KafkaRecordBatch<String, byte[]> batch) {
        @SuppressWarnings("unchecked")
        IncomingKafkaRecordBatchMetadata<String, byte[]> metadata = batch.getMetadata(IncomingKafkaRecordBatchMetadata.class)
                .orElseThrow(() -> new IllegalStateException("Cannot read a batch: it carries no Kafka metadata"));
        List<RawRecord> run = new ArrayList<>();
        try {
            // in Kafka's order: the records read in full in runs, each large one alone between them
            for (ConsumerRecord<String, byte[]> record : metadata.getRecords()) {
                if (DetachedBytesDeserializer.leftOut(record)) {
                    store(run);
                    largeValues.storeAlone(record, full -> ingestor.ingest(List.of(RawRecords.of(full))));
                } else {
                    run.add(RawRecords.of(record));
                }
            }
            store(run);
        } catch (RuntimeException e) {
            // Only a refusal that no retry cures gets here; the records go to the channel's failure strategy.
            // Runs of the batch stored before the refusal stay stored.
            Log.errorf(e, "Cannot store a batch of %d record(s) starting at %s", metadata.getRecords().count(),
                    first(metadata));
            return batch.nack(e);
        }
        return batch.ack();
    }

    private void store(List<RawRecord> run) {
        if (!run.isEmpty()) {
            ingestor.ingest(List.copyOf(run));
            run.clear();
        }
    }

    private static String first(IncomingKafkaRecordBatchMetadata<String, byte[]> metadata) {
        for (ConsumerRecord<String, byte[]> record : metadata.getRecords()) {
            return record.topic() + "-" + record.partition() + "@" + record.offset();
        }
        return "-";
    }
}
