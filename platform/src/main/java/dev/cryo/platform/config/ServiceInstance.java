package dev.cryo.platform.config;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.UUID;

/**
 * This process: {@code <service>-<8 hex>}, stable for the process's life. Names the governor
 * that admitted a job and the executor that ran it.
 */
@ApplicationScoped
public class ServiceInstance {

    private final String id;
    private final String source;

    ServiceInstance(ServiceConfig config) {
        this.id = config.name() + "-" + UUID.randomUUID().toString().substring(0, 8);
        this.source = dev.cryo.contracts.cloudevents.CloudEvents.source(config.name());
    }

    /** The instance id, e.g. {@code executor-1a2b3c4d}. */
    public String id() {
        return id;
    }

    /** The CloudEvents source of events this service produces, e.g. {@code /cryo/scanner}. */
    public String source() {
        return source;
    }
}
