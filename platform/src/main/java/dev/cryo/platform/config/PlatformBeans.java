package dev.cryo.platform.config;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import io.quarkus.arc.DefaultBean;

import java.time.Clock;
import java.time.Duration;

/** Beans every service can replace: the clock (tests use a fixed or stepping one). */
@ApplicationScoped
public class PlatformBeans {

    @Produces
    @DefaultBean
    @ApplicationScoped
    Clock clock() {
        return microsecondClock();
    }

    /**
     * UTC ticking in whole microseconds: PostgreSQL keeps microseconds and rounds the rest, so a
     * nanosecond time in an event would not equal the same time read back from a service's
     * database (seen: a scan that looked newer than itself, a grade time that the console and the
     * CLI showed one microsecond apart). Every time Cryo publishes or stores is one of these.
     */
    public static Clock microsecondClock() {
        return Clock.tick(Clock.systemUTC(), Duration.ofNanos(1_000));
    }
}
