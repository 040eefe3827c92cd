package dev.cryo.executor.messaging;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.executor.app.JobRunner;
import dev.cryo.executor.config.ConfiguredEngines;
import dev.cryo.executor.config.ExecutorConfig;
import dev.cryo.executor.persistence.JobAttempts;
import dev.cryo.executor.persistence.JobRevocations;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.messaging.EventConsumers;
import dev.cryo.platform.messaging.EventPublisher;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * The executors' one consumer group on {@code cryo.jobs.admitted.v1}: each job runs on one
 * executor, on a worker pool of {@code cryo.executor.concurrent-jobs} threads. The record is
 * acknowledged only after the job's JobFinished is on the broker, so an executor that dies
 * mid-job leaves the record to the next member of the group.
 */
@ApplicationScoped
public class JobAdmittedConsumer {

    static final String WORKER_POOL = "cryo-jobs";

    private final EventConsumers consumers;
    private final EventPublisher publisher;
    private final JobRunner runner;

    JobAdmittedConsumer(EventConsumers consumers, @Channel(Topics.JOBS_RESULTS) Emitter<CryoEvent> results,
                        ConfiguredEngines engines, CatalogRegistry catalogs, JobAttempts attempts, JobRevocations revocations,
                        ServiceInstance instance,
                        ExecutorConfig config, Clock clock, MeterRegistry registry) {
        this.consumers = consumers;
        this.publisher = new EventPublisher(Map.of(Topics.JOBS_RESULTS, results));
        this.runner = new JobRunner(engines.engines(), engines.routing(), catalogs.names(), attempts, revocations, publisher, instance, config, clock,
                registry);
    }

    @Incoming(Topics.JOBS_ADMITTED)
    @Blocking(value = WORKER_POOL, ordered = false)
    public CompletionStage<Void> consume(Message<CryoEvent> message) {
        return consumers.consume("executor", message, runner::handle, publisher);
    }

    @PreDestroy
    void close() {
        runner.close();
    }
}
