package dev.cryo.governor.domain;

import java.time.Instant;
import java.util.Optional;

/**
 * A recurring time span in which maintenance may run. Two forms, each with an optional time
 * zone (default UTC):
 * <ul>
 *   <li>{@code HH:MM-HH:MM [zone]}, daily, e.g. {@code 22:00-06:00 Europe/Berlin} (a window may
 *       cross midnight: it then ends on the next day);</li>
 *   <li>{@code cron(<minute hour day-of-month month day-of-week>) <length> [zone]}, starting at
 *       each time the Unix cron expression fires and lasting an ISO-8601 length, e.g.
 *       {@code cron(0 1 * * SAT,SUN) PT5H America/New_York}.</li>
 * </ul>
 */
public interface MaintenanceWindow {

    /** True when the window is open at {@code instant} (start inclusive, end exclusive). */
    boolean contains(Instant instant);

    /** The first start of the window after {@code instant}; empty when it never opens again. */
    Optional<Instant> nextStart(Instant instant);

    /** The window as written. */
    String expression();

    /**
     * Parses a window.
     *
     * @throws InvalidPolicyException saying what is wrong and how to write it
     */
    static MaintenanceWindow parse(String expression) {
        return Windows.parse(expression);
    }
}
