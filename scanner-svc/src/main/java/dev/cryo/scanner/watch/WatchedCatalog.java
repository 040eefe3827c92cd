package dev.cryo.scanner.watch;

import dev.cryo.contracts.TableId;
import dev.cryo.iceberg.catalog.CatalogSecrets;
import io.quarkus.logging.Log;
import org.apache.iceberg.exceptions.NotAuthorizedException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * One catalog as the watcher polls it. A catalog that fails (down, or refusing a revoked or wrong
 * credential) is asked again only after a backoff that doubles from {@link #FIRST_BACKOFF} up to
 * {@link #MAX_BACKOFF}, so a broken catalog costs its server one request per backoff rather than
 * one per poll; it logs one warning when it starts failing or fails differently (repeats go to
 * DEBUG) and one line when it recovers. No error it reports holds the value of a secret property
 * of the catalog.
 */
final class WatchedCatalog {

    static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofMinutes(5);

    private final String name;
    private final Map<String, String> properties;
    private final PointerSource source;
    private final Clock clock;
    private int failures;
    private String lastReason;
    private Instant nextAttempt = Instant.MIN;

    WatchedCatalog(String name, Map<String, String> properties, PointerSource source, Clock clock) {
        this.name = requireNonNull(name, "name is null");
        this.properties = Map.copyOf(requireNonNull(properties, "properties is null"));
        this.source = requireNonNull(source, "source is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Whether a scheduled poll should ask the catalog now: always, unless it is backing off after failures. */
    synchronized boolean due() {
        return !clock.instant().isBefore(nextAttempt);
    }

    /**
     * The current pointers of the catalog.
     *
     * @throws PollFailure naming the catalog and saying why, without secrets; the backoff grows
     */
    synchronized Map<TableId, String> pointers() {
        Map<TableId, String> pointers;
        try {
            pointers = source.pointers();
        } catch (RuntimeException e) {
            throw failed(e);
        }
        if (failures > 0) {
            Log.infof("Catalog %s is reachable again after %d failed poll(s)", name, failures);
        }
        failures = 0;
        lastReason = null;
        nextAttempt = Instant.MIN;
        return pointers;
    }

    String method() {
        return source.method();
    }

    /** Polls that failed in a row. */
    synchronized int failures() {
        return failures;
    }

    private PollFailure failed(RuntimeException e) {
        String reason = CatalogSecrets.withoutSecrets(String.valueOf(e.getMessage()), properties);
        if (e instanceof NotAuthorizedException) {
            reason = "the catalog refused the credentials (revoked or wrong 'credential' or 'token'?): " + reason;
        }
        failures++;
        Duration backoff = backoff(failures);
        nextAttempt = clock.instant().plus(backoff);
        PollFailure failure = new PollFailure(name, reason);
        if (reason.equals(lastReason)) {
            Log.debugf("%s (failure %d in a row; next attempt in %s)", failure.getMessage(), failures, backoff);
        } else {
            Log.warnf("%s (next attempts back off up to %s; the same error again is logged at DEBUG)",
                    failure.getMessage(), MAX_BACKOFF);
        }
        lastReason = reason;
        return failure;
    }

    /** The wait after {@code failures} failed polls in a row: 1 s, 2 s, 4 s, … at most {@link #MAX_BACKOFF}. */
    static Duration backoff(int failures) {
        int doublings = Math.min(Math.max(failures - 1, 0), 20);
        Duration backoff = FIRST_BACKOFF.multipliedBy(1L << doublings);
        return backoff.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff;
    }

    /** A poll of a catalog failed; the message names the catalog and holds no secret of it. */
    static final class PollFailure extends RuntimeException {

        private final String reason;

        PollFailure(String catalog, String reason) {
            // no cause: its messages may hold what the catalog echoed back, secrets included
            super("Cannot poll catalog " + catalog + ": " + reason, null, false, false);
            this.reason = reason;
        }

        /** Why, without the catalog's name (the catalogs endpoint shows it next to the name). */
        String reason() {
            return reason;
        }
    }
}
