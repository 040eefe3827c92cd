package dev.cryo.platform.messaging;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.health.HealthReport;
import io.smallrye.reactive.messaging.providers.extension.HealthCenter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Makes a dead channel loud. When SmallRye stops a channel for good (its consumer failed, its
 * commit strategy gave up, its dead-letter producer failed), the process keeps running and
 * serving REST while that channel handles nothing more. SmallRye then reports the channel KO on
 * {@code /q/health/live}, so an orchestrator that restarts on liveness replaces the instance
 * (the restarted consumer resumes from the last committed offset); this watch adds what a person
 * reading the log needs: one ERROR per failed channel, naming it, the reason and what to do, and
 * the gauge {@code cryo.messaging.channels.failed} to alert on.
 */
@ApplicationScoped
public class ChannelWatch {

    /** Reading the liveness report is cheap (no broker call): every few seconds is fine. */
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(5);

    private final HealthCenter health;
    private final String service;
    private final Set<String> failed = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService timer;

    ChannelWatch(HealthCenter health, MeterRegistry registry,
                 @ConfigProperty(name = "cryo.service.name") String service) {
        this.health = health;
        this.service = service;
        registry.gauge("cryo.messaging.channels.failed", failed, Set::size);
    }

    void start(@Observes StartupEvent event) {
        timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "cryo-channel-watch");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::check, CHECK_INTERVAL.toMillis(), CHECK_INTERVAL.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent event) {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    /** The channels reported failed so far. */
    public Set<String> failedChannels() {
        return Set.copyOf(failed);
    }

    void check() {
        // A scheduled task that throws is never run again: report the problem and keep watching.
        try {
            for (HealthReport.ChannelInfo channel : health.getLiveness().getChannels()) {
                if (!channel.isOk() && failed.add(channel.getChannel())) {
                    Log.errorf("%s: the Kafka channel %s has failed and handles nothing more: %s. The service keeps"
                                    + " running, so /q/health/live now answers DOWN: an orchestrator that restarts on"
                                    + " liveness replaces this instance; without one, restart the %s service. The"
                                    + " restarted consumer resumes from the last committed offset (nothing is lost).",
                            service, channel.getChannel(), withoutFinalPeriod(channel.getMessage()), service);
                }
            }
        } catch (RuntimeException e) {
            Log.warnf(e, "%s: cannot read the health of the Kafka channels: %s", service, e.getMessage());
        }
    }

    private static String withoutFinalPeriod(String message) {
        if (message == null || message.isBlank()) {
            return "no reason given";
        }
        String trimmed = message.strip();
        return trimmed.endsWith(".") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
    }
}
