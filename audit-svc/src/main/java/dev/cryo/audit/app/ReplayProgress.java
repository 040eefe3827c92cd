package dev.cryo.audit.app;

import dev.cryo.audit.persistence.ReplayRuns;
import io.quarkus.logging.Log;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/** Counts what a replay did, and logs and saves it every {@code cryo.audit.replay.progress-interval}. */
final class ReplayProgress {

    private final UUID run;
    private final String what;
    private final ReplayRuns runs;
    private final Clock clock;
    private final Duration interval;
    private final Instant started;
    private Long total;
    private long done;
    private Instant lastReport;

    ReplayProgress(UUID run, String what, ReplayRuns runs, Clock clock, Duration interval) {
        this.run = run;
        this.what = what;
        this.runs = runs;
        this.clock = clock;
        this.interval = interval;
        this.started = clock.instant();
        this.lastReport = started;
    }

    void total(long records) {
        total = records;
        runs.progress(run, total, done, message());
    }

    void advance(long records) {
        done += records;
        Instant now = clock.instant();
        if (!now.isBefore(lastReport.plus(interval))) {
            lastReport = now;
            String message = message();
            Log.infof("replay %s: %s", run, message);
            runs.progress(run, total, done, message);
        }
    }

    long done() {
        return done;
    }

    Duration elapsed() {
        return Duration.between(started, clock.instant());
    }

    /** Records per second so far. */
    long rate() {
        long millis = Math.max(1, elapsed().toMillis());
        return done * 1000 / millis;
    }

    String message() {
        return what + ": " + done + (total == null ? "" : " of " + total) + " records in " + elapsed().toSeconds() + " s ("
                + rate() + "/s)";
    }
}
