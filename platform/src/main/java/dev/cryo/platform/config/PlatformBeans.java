package dev.cryo.platform.config;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import io.quarkus.arc.DefaultBean;

import java.time.Clock;

/** Beans every service can replace: the clock (tests use a fixed or stepping one). */
@ApplicationScoped
public class PlatformBeans {

    @Produces
    @DefaultBean
    @ApplicationScoped
    Clock clock() {
        return Clock.systemUTC();
    }
}
