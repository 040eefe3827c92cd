package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryo.cli.api.CliException;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One run of {@code ./cryo fix}: what it has found so far (the JSON result), when it began, how long
 * and how often it asks, and where it says what it sees, each line stamped with the seconds since it
 * began.
 */
final class FixSession {

    final String table;
    final ObjectNode result;
    final Instant started;
    final Duration timeout;
    final FixLookups lookups;
    final ZoneId zone;
    private final Duration pollInterval;
    private final Clock clock;
    private final PrintWriter progress;

    FixSession(String table, ObjectNode result, Instant started, Duration timeout, Duration pollInterval,
               FixLookups lookups, Clock clock, PrintWriter progress, ZoneId zone) {
        this.table = table;
        this.result = result;
        this.started = started;
        this.timeout = timeout;
        this.pollInterval = pollInterval;
        this.lookups = lookups;
        this.clock = clock;
        this.progress = progress;
        this.zone = zone;
    }

    Instant now() {
        return clock.instant();
    }

    void say(String format, Object... arguments) {
        progress.printf("[%6.1f s] %s%n", Duration.between(started, now()).toMillis() / 1000.0,
                String.format(Locale.ROOT, format, arguments));
        progress.flush();
    }

    /** Asks until the check finds it, or fails naming what did not come within the timeout. */
    JsonNode await(String what, Instant deadline, Supplier<Optional<JsonNode>> check) {
        return poll(deadline, check).orElseThrow(() -> new CliException("Cannot follow the fix of " + table + ": no "
                + what + " within " + timeout + "; see ./cryo status and ./cryo audit --table " + table));
    }

    /** Asks until the check finds it or the deadline passes. */
    Optional<JsonNode> poll(Instant deadline, Supplier<Optional<JsonNode>> check) {
        while (true) {
            Optional<JsonNode> found = check.get();
            if (found.isPresent() || !now().isBefore(deadline)) {
                return found;
            }
            pause();
        }
    }

    void pause() {
        try {
            Thread.sleep(pollInterval.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("Interrupted while following the fix of " + table, e);
        }
    }
}
