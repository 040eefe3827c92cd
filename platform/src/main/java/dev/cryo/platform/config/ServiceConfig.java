package dev.cryo.platform.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Identity of the running service. */
@ConfigMapping(prefix = "cryo.service")
public interface ServiceConfig {

    /** Short name of the service (scanner, scorer, ...): names its schema, consumer group, dead-letter topic and event source. */
    @WithDefault("unnamed")
    String name();

    /** The PostgreSQL schema the service owns. */
    String schema();
}
