package dev.cryo.audit.app;

import dev.cryo.audit.AuditErrorCode;
import dev.cryo.audit.config.AuditConfig;
import dev.cryo.audit.domain.AuditFilter;
import dev.cryo.audit.domain.ReplayRun;
import dev.cryo.audit.messaging.IngestLag;
import dev.cryo.audit.persistence.AuditQueries;
import dev.cryo.audit.persistence.AuditStore;
import dev.cryo.audit.persistence.ReplayRuns;
import dev.cryo.audit.persistence.StoreComparator;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.messaging.KafkaConnection;
import io.agroal.api.AgroalDataSource;
import io.quarkus.logging.Log;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * Runs rebuilds and re-publications one at a time, in the background, and records each run (who
 * asked, progress, result) in {@code replay_run}.
 */
@ApplicationScoped
public class Replays {

    private static final DateTimeFormatter SUFFIX = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss").withZone(ZoneOffset.UTC);

    private final AuditStore live;
    private final AuditQueries liveQueries;
    private final AgroalDataSource dataSource;
    private final RebuildTargets targets;
    private final StoreComparator comparator;
    private final IngestLag lag;
    private final ReplayRuns runs;
    private final ReplaySettings settings;
    private final AuditConfig config;
    private final KafkaConnection kafka;
    private final Clock clock;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "cryo-audit-replay");
        thread.setDaemon(true);
        return thread;
    });

    Replays(AuditStore live, AuditQueries liveQueries, AgroalDataSource dataSource, RebuildTargets targets, StoreComparator comparator,
            IngestLag lag, ReplayRuns runs, AuditConfig config, KafkaConnection kafka, Clock clock) {
        this.live = live;
        this.liveQueries = liveQueries;
        this.dataSource = dataSource;
        this.targets = targets;
        this.comparator = comparator;
        this.lag = lag;
        this.runs = runs;
        this.settings = ReplaySettings.of(config);
        this.config = config;
        this.kafka = kafka;
        this.clock = clock;
    }

    /**
     * Queues a rebuild of the audit log from Kafka into an empty schema, compared with the live store.
     *
     * @param targetSchema the schema to create (absent: {@code <live schema>_rebuild_<UTC time>})
     * @param from read from the first offset at or after this time (absent: the earliest retained offset)
     * @param actor who asks
     * @throws CryoException when the target cannot be used (a 4xx), before anything is queued
     */
    public ReplayRun rebuild(Optional<String> targetSchema, Optional<Instant> from, String actor) {
        String schema = targetSchema.orElseGet(() -> live.schema() + "_rebuild_" + SUFFIX.format(clock.instant()));
        if (from.isPresent() && from.get().isAfter(clock.instant())) {
            throw new CryoException(AuditErrorCode.INVALID_REPLAY, "Cannot rebuild from " + from.get()
                    + ": the time is in the future");
        }
        targets.check(schema);
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("targetSchema", schema);
        parameters.put("from", from.map(Instant::toString).orElse("earliest"));
        ReplayRun run = runs.create(ReplayRun.Kind.REBUILD, actor, EventJson.writeString(parameters));
        Log.infof("rebuild %s into %s from %s queued by %s", run.id(), schema, parameters.get("from"), actor);
        submit(run, "rebuild into " + schema, progress -> {
            targets.create(schema);
            AuditStore target = new AuditStore(dataSource, schema, clock);
            Rebuild.Result result = new Rebuild(live, target, comparator, lag, kafka.settings(), from.orElse(null),
                    settings, clock).run(progress);
            Log.infof("rebuild %s into %s: %d record(s) read at %d/s; contents %s, live chain %s, rebuilt chain %s",
                    run.id(), schema, result.recordsRead(), result.recordsPerSecond(),
                    result.comparison().equal() ? "equal" : result.comparison().differences() + " difference(s)",
                    result.liveChain().intact() ? "intact" : "BROKEN", result.rebuiltChain().intact() ? "intact" : "BROKEN");
            return new Outcome(result.recordsRead(), result, result.matches() ? "the rebuilt store matches the live store"
                    : "the rebuilt store does NOT match the live store: see the result");
        });
        return run;
    }

    /**
     * Queues a re-publication of the stored events of {@code filter} to cryo.replay.v1.
     *
     * @throws CryoException when the filter has no time range
     */
    public ReplayRun publish(AuditFilter filter, String actor) {
        if (filter.from() == null || filter.to() == null) {
            throw new CryoException(AuditErrorCode.INVALID_REPLAY, "Cannot re-publish: give the time range with 'from' "
                    + "and 'to'");
        }
        ReplayRun run = runs.create(ReplayRun.Kind.PUBLISH, actor, EventJson.writeString(filter));
        Log.infof("re-publication %s of %s .. %s queued by %s", run.id(), filter.from(), filter.to(), actor);
        submit(run, "re-publish to cryo.replay.v1", progress -> {
            Republish.Result result = new Republish(liveQueries, filter, run.id(), actor, kafka.settings(),
                    config.export().fetchSize(), clock).run(progress);
            return new Outcome(result.recordsPublished(), result, result.recordsPublished() + " record(s) re-published");
        });
        return run;
    }

    public Optional<ReplayRun> find(UUID id) {
        return runs.find(id);
    }

    public List<ReplayRun> recent(int limit) {
        return runs.recent(limit);
    }

    private record Outcome(long records, Object result, String message) {
    }

    private void submit(ReplayRun run, String what, Function<ReplayProgress, Outcome> work) {
        executor.submit(() -> {
            ReplayProgress progress = new ReplayProgress(run.id(), what, runs, clock, settings.progressInterval());
            try {
                runs.running(run.id(), what + ": started");
                Outcome outcome = work.apply(progress);
                runs.finish(run.id(), ReplayRun.State.SUCCEEDED, outcome.records(), outcome.message() + " ("
                        + progress.message() + ")", EventJson.writeString(outcome.result()));
            } catch (RuntimeException e) {
                Log.errorf(e, "replay %s (%s) failed", run.id(), what);
                try {
                    runs.finish(run.id(), ReplayRun.State.FAILED, progress.done(), e.getMessage(), null);
                } catch (RuntimeException recording) {
                    Log.errorf(recording, "Cannot record that replay %s failed", run.id());
                }
            }
        });
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }
}
