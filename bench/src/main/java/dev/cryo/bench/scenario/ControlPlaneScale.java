package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.domain.Target;
import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.Environment;
import dev.cryo.bench.harness.ProcessCpu;
import dev.cryo.bench.harness.Settle;
import dev.cryo.bench.harness.Workload;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.TableGraded;
import org.apache.iceberg.Table;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** Scenario 6: a catalog of many tables, a sweep, then a burst of webhook notifications; service RSS. */
public final class ControlPlaneScale implements Scenario {

    private static final double RSS_LIMIT_MIB = 512;
    private static final int ISSUE_TABLES = 10_000;
    /** Notifications in flight at once during the burst. */
    private static final int NOTIFY_THREADS = 8;
    /** Tables created at once when the fleet is built. */
    private static final int CREATE_THREADS = 4;

    @Override
    public int id() {
        return 6;
    }

    @Override
    public String title() {
        return "control-plane scale: sweep, notifications, RSS";
    }

    @Override
    public ScenarioResult run(BenchContext context) {
        int tables = context.sizes().integer("scale.tables");
        int rate = context.sizes().integer("scale.rate");
        Duration burst = context.sizes().duration("scale.duration");
        Duration timeout = context.sizes().duration("scale.settle-timeout");
        long target = context.sizes().longValue("target-file-size-bytes");
        String namespace = context.namespace(id(), 0, "fleet");
        context.lakehouse().createNamespace(namespace);
        context.api().pause(context.pattern(namespace), "CryoBench: control-plane scale, no maintenance");
        Map<String, Double> peakRss = new ConcurrentHashMap<>();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                for (String service : Environment.SERVICES) {
                    context.environment().servicePid(service).ifPresent(pid -> {
                        double rss = ProcessCpu.residentMiB(pid);
                        if (!Double.isNaN(rss)) {
                            peakRss.merge(service, rss, Math::max);
                        }
                    });
                }
                Settle.sleep(Duration.ofSeconds(1));
            }
        }, "bench-rss-sampler");
        sampler.setDaemon(true);
        sampler.start();
        List<String> notes = new ArrayList<>();
        List<Double> sweepSeconds = new ArrayList<>();
        List<Double> sweepRate = new ArrayList<>();
        List<Double> notificationGradedRate = new ArrayList<>();
        List<Double> notificationsAccepted = new ArrayList<>();
        try {
            long createStart = System.nanoTime();
            Map<TableId, Long> snapshots = createFleet(context, namespace, tables, target);
            List<TableId> ids = List.copyOf(snapshots.keySet());
            notes.add(tables + " tables created in " + (System.nanoTime() - createStart) / 1_000_000_000L + " s");
            awaitGraded(context, ids, Instant.EPOCH, timeout, "the first grade of every table");
            for (int trial = 0; trial < context.trials(); trial++) {
                Instant sweepStart = Instant.now();
                int asked = context.api().sweep(namespace);
                if (asked != tables) {
                    throw new IllegalStateException("Cannot measure the sweep: the scanner asked for a scan of " + asked
                            + " tables of " + namespace + ", not the " + tables + " created");
                }
                double requestSeconds = Duration.between(sweepStart, Instant.now()).toMillis() / 1000.0;
                Instant lastGraded = awaitGraded(context, ids, sweepStart, timeout, "the sweep's grade of every table");
                double seconds = Duration.between(sweepStart, lastGraded).toMillis() / 1000.0;
                sweepSeconds.add(seconds);
                sweepRate.add(tables / seconds);
                notes.add("trial " + (trial + 1) + ": sweep requests took " + requestSeconds + " s of the " + seconds + " s");

                Instant burstStart = Instant.now();
                long burstStartNanos = System.nanoTime();
                int sent = 0;
                AtomicInteger accepted = new AtomicInteger();
                // notifications go out on a schedule, several in flight at once (as many writers' webhooks would),
                // so that the rate is the scanner's to keep up with, not one client's round trips
                ExecutorService senders = Executors.newFixedThreadPool(NOTIFY_THREADS);
                List<Future<?>> inFlight = new ArrayList<>();
                try {
                    while (System.nanoTime() - burstStartNanos < burst.toNanos()) {
                        long due = burstStartNanos + (long) (sent * (1e9 / rate));
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            Settle.sleep(Duration.ofNanos(wait));
                        }
                        TableId id = ids.get(sent % ids.size());
                        inFlight.add(senders.submit(() -> {
                            if (context.api().notify(id, snapshots.get(id)) / 100 == 2) {
                                accepted.incrementAndGet();
                            }
                        }));
                        sent++;
                    }
                    for (Future<?> notification : inFlight) {
                        notification.get();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted while sending notifications", e);
                } catch (ExecutionException e) {
                    throw new IllegalStateException("Cannot send the notifications: " + e.getCause().getMessage(),
                            e.getCause());
                } finally {
                    senders.shutdownNow();
                }
                double burstSeconds = (System.nanoTime() - burstStartNanos) / 1e9;
                notificationsAccepted.add(accepted.get() / burstSeconds);
                Settle.sleep(Duration.ofSeconds(5));
                Set<TableId> notified = new HashSet<>(ids.subList(0, Math.min(ids.size(), sent)));
                List<TableGraded> graded = context.tap().events(TableGraded.class,
                        event -> notified.contains(event.table()) && !event.gradedAt().isBefore(burstStart));
                Instant last = graded.stream().map(TableGraded::gradedAt).max(Instant::compareTo).orElse(burstStart);
                double window = Math.max(burstSeconds, Duration.between(burstStart, last).toMillis() / 1000.0);
                notificationGradedRate.add(graded.size() / window);
                notes.add("trial " + (trial + 1) + ": " + sent + " notifications sent (" + accepted.get() + " accepted) in "
                        + Math.round(burstSeconds) + " s; " + graded.size() + " grades followed");
            }
        } finally {
            sampling.set(false);
            // the fleet stays paused: it is measured, never maintained
        }
        List<Metric> metrics = new ArrayList<>(List.of(
                new Metric("sweep duration", "s", "cryo", sweepSeconds),
                new Metric("sweep grading throughput", "tables/s", "cryo", sweepRate),
                new Metric("notifications accepted", "per s", "cryo", notificationsAccepted),
                new Metric("grades during the notification burst", "per s", "cryo", notificationGradedRate)));
        List<Target> targets = new ArrayList<>();
        String sweep = "sweep of 10 000 tables ≤ 5 min";
        targets.add(tables < ISSUE_TABLES
                ? Target.notEvaluated(Target.Rule.EVERY_TRIAL, sweep, "this run has " + tables
                        + " tables (scale.tables); --full sweeps 10 000")
                : Target.atMost(sweep, sweepSeconds, 300, " s"));
        for (String service : Environment.SERVICES) {
            Double rss = peakRss.get(service);
            metrics.add(new Metric("peak RSS " + service, "MiB", "cryo", rss == null ? List.of() : List.of(rss)));
            targets.add(Target.wholeRunAtMost(service + " ≤ 512 MiB RSS (peak of the run)", rss, RSS_LIMIT_MIB, " MiB"));
        }
        notes.add("The sweep: the scanner's own sweep of the fleet's namespace (POST /api/v1/sweeps, what the scheduled "
                + "sweep does), timed from the request until every table has a grade newer than it. The notifications go "
                + "out on schedule from " + NOTIFY_THREADS + " threads. The notifications name each "
                + "table's current snapshot, so the scanner may coalesce them: the grades that follow are reported as they "
                + "came.");
        return new ScenarioResult(id(), title(), ScenarioResult.SCORED, context.sizes().withPrefix("scale."), metrics,
                List.of(), targets, List.of(), List.of(), notes);
    }

    /**
     * The fleet: tables of one small file each, created from {@value #CREATE_THREADS} threads (10 000 one after
     * the other would take about 20 minutes here), in name order, each with its current snapshot.
     */
    private static Map<TableId, Long> createFleet(BenchContext context, String namespace, int tables, long target) {
        ExecutorService creators = Executors.newFixedThreadPool(CREATE_THREADS);
        try {
            List<Future<Map.Entry<TableId, Long>>> created = new ArrayList<>();
            for (int t = 0; t < tables; t++) {
                int index = t;
                created.add(creators.submit(() -> {
                    String name = "t" + index;
                    Table table = context.lakehouse().create(namespace, name, target, false);
                    new Workload(table, BenchContext.seed(0, index)).append(0, 10);
                    return Map.entry(context.lakehouse().id(namespace, name), table.currentSnapshot().snapshotId());
                }));
            }
            Map<TableId, Long> snapshots = new LinkedHashMap<>();
            for (Future<Map.Entry<TableId, Long>> table : created) {
                Map.Entry<TableId, Long> entry = table.get();
                snapshots.put(entry.getKey(), entry.getValue());
            }
            return snapshots;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating the fleet", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot create the fleet: " + e.getCause().getMessage(), e.getCause());
        } finally {
            creators.shutdownNow();
        }
    }

    private static Instant awaitGraded(BenchContext context, List<TableId> ids, Instant since, Duration timeout,
                                       String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Set<TableId> wanted = new HashSet<>(ids);
        while (System.nanoTime() < deadline) {
            Map<TableId, Instant> latest = new LinkedHashMap<>();
            for (TableGraded event : context.tap().events(TableGraded.class,
                    event -> wanted.contains(event.table()) && !event.gradedAt().isBefore(since))) {
                latest.merge(event.table(), event.gradedAt(), (a, b) -> a.isBefore(b) ? a : b);
            }
            if (latest.size() == wanted.size()) {
                return latest.values().stream().max(Instant::compareTo).orElse(since);
            }
            Settle.sleep(Duration.ofMillis(500));
        }
        throw new IllegalStateException("Cannot see " + what + " within " + timeout);
    }
}
