package dev.cryo.console.web;

import dev.cryo.console.client.AuditApi.AuditPage;
import dev.cryo.console.client.ExecutorApi.ExecutorJob;
import dev.cryo.console.client.Fetched;
import dev.cryo.console.client.GovernorApi.EngineSlots;
import dev.cryo.console.client.GovernorApi.GovernedTable;
import dev.cryo.console.client.GovernorApi.Policy;
import dev.cryo.console.client.GovernorApi.Queue;
import dev.cryo.console.client.PlannerApi;
import dev.cryo.console.client.PlannerApi.CurrentPlan;
import dev.cryo.console.client.ScannerApi.ScannedTable;
import dev.cryo.console.client.ScorerApi.GradedTables;
import dev.cryo.console.client.ScorerApi.TableGrade;
import dev.cryo.console.client.Services;
import dev.cryo.console.config.ConsoleConfig;
import dev.cryo.console.domain.AuditTimeline;
import dev.cryo.console.domain.Fleet;
import dev.cryo.console.domain.FleetQuery;
import dev.cryo.console.domain.FleetRow;
import dev.cryo.console.domain.GradeChart;
import dev.cryo.console.domain.HeatMap;
import dev.cryo.console.domain.JobHistory;
import dev.cryo.console.domain.PlanSql;
import dev.cryo.console.domain.QueueBoard;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.enginesql.CatalogNames;
import dev.cryo.enginesql.SqlRenderer;
import dev.cryo.enginesql.spark.SparkRenderer;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoRenderer;
import dev.cryo.enginesql.trino.TrinoSettings;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** Puts each page together from the services, asking them side by side. */
@ApplicationScoped
public class ConsoleViews {

    /** Jobs the table page lists. */
    static final int JOBS_SHOWN = 10;
    /** OperationFinished results the table page reads from the audit log. */
    static final int RESULTS_READ = 300;
    /** How far back the planner's job scores are read for a table's jobs. */
    static final String SCORES_SINCE = "P30D";
    /** Finished jobs the queue page lists. */
    static final int FINISHED_SHOWN = 10;
    static final String OPERATION_FINISHED = "dev.cryo.operation.finished.v1";

    private final Services services;
    private final Governance governance;
    private final ConsoleConfig config;
    private final Clock clock = Clock.systemUTC();

    ConsoleViews(Services services, Governance governance, ConsoleConfig config) {
        this.services = services;
        this.governance = governance;
        this.config = config;
    }

    public FleetPage fleet(FleetQuery query) {
        // The scorer filters by catalog and namespace too, so the limit of a big fleet applies to the tables
        // asked for; grades are filtered here, so the grade bar still counts every grade.
        CompletableFuture<Fetched<GradedTables>> graded = services.fetch(() -> services.scorer(
                api -> api.tables(null, query.catalog(), query.namespace(), config.fleetLimit())));
        CompletableFuture<Fetched<List<ScannedTable>>> scanned = services.fetch(() -> services.scanner(api -> api.tables()));
        List<String> problems = new ArrayList<>();
        Fetched<GradedTables> gradedTables = graded.join();
        Fetched<List<ScannedTable>> scans = scanned.join();
        boolean truncated = false;
        if (!gradedTables.ok()) {
            problems.add(gradedTables.problemText());
        } else if (gradedTables.value().total() > gradedTables.value().tables().size()) {
            truncated = true;
            problems.add("The scorer grades " + gradedTables.value().total() + " such tables; the worst "
                    + gradedTables.value().tables().size() + " are listed (cryo.console.fleet-limit), and tables "
                    + "not graded yet are left out");
        }
        if (!scans.ok()) {
            problems.add(scans.problemText());
        }
        List<ScannedTable> scannedTables = scans.ok() ? scans.value() : List.of();
        if (truncated) {
            // Past the limit, a table missing from the grades may well be graded: only the graded ones are sure.
            Set<String> listed = new HashSet<>();
            gradedTables.value().tables().forEach(table -> listed.add(table.table()));
            scannedTables = scannedTables.stream().filter(table -> listed.contains(table.table())).toList();
        }
        // Every known table gives the filter its choices; the page counts the chosen catalog and namespace.
        List<FleetRow> known = Fleet.rows(gradedTables.ok() ? gradedTables.value().tables() : List.of(), scannedTables);
        List<FleetRow> all = known.stream()
                .filter(row -> inScope(row.table(), query.catalog(), query.namespace())).toList();
        List<FleetRow> shown = query.apply(all);
        Governance.Answers governed = governance.of(shown.stream().map(FleetRow::table).toList());
        if (governed.problem() != null) {
            problems.add(governed.problem().describe());
        }
        shown = shown.stream().map(row -> {
            GovernedTable table = governed.tables().get(row.table());
            return table == null ? row : row.withGovernance(table.engine(), table.pausedBy() != null);
        }).toList();
        // Sorting by engine needs the governor's answers, which arrive after the first sort.
        if (query.sort() == FleetQuery.Sort.ENGINE) {
            shown = query.apply(shown);
        }
        Map<Grade, Long> counts = Fleet.countByGrade(all);
        List<FleetPage.GradeCount> gradeCounts = new ArrayList<>();
        for (Grade grade : Grade.values()) {
            gradeCounts.add(new FleetPage.GradeCount(grade, counts.get(grade), query.wantsGrade(grade)));
        }
        return new FleetPage(query, shown, all.size(), gradeCounts, Fleet.catalogs(known), Fleet.namespaces(known),
                problems, clock.instant());
    }

    public TablePage table(String table) {
        var grade = services.fetch(() -> services.scorer(api -> api.grade(table)));
        var history = services.fetch(() -> services.scorer(api -> api.history(table, config.historyLimit())));
        var scan = services.fetch(() -> services.scanner(api -> api.lastScan(table)));
        var plan = services.fetch(() -> services.planner(api -> api.currentPlan(table)));
        var governed = services.fetch(() -> services.governor(api -> api.table(table)));
        var policies = services.fetch(() -> services.governor(api -> api.policies()));
        var jobs = services.fetch(() -> services.executor(api -> api.jobs(config.recentJobs())));
        var events = services.fetch(() -> services.audit(api -> api.events(table, null, config.timelineEvents())));
        var results = services.fetch(() -> services.audit(api -> api.events(table, OPERATION_FINISHED, RESULTS_READ)));
        var scores = services.fetch(() -> services.planner(api -> api.jobScores(table, SCORES_SINCE, RESULTS_READ)));

        Fetched<GradeChart> chart = map(history.join(), list -> GradeChart.of(list.stream()
                .filter(entry -> entry.gradedAt() != null && entry.grade() != null)
                .map(entry -> new GradeChart.Entry(entry.gradedAt(), entry.score(), entry.grade())).toList(), 640, 200));
        Fetched<TablePage.Scan> scanned = map(scan.join(), (TableScanned last) -> new TablePage.Scan(last, HeatMap.of(last)));
        Fetched<TablePage.Plan> planned = map(plan.join(), (CurrentPlan current) -> new TablePage.Plan(current,
                current.plan() == null ? null : PlanSql.of(current.plan(), renderers())));
        Fetched<List<AuditTimeline.Chain>> timeline = map(events.join(), (AuditPage page) -> AuditTimeline.of(page.items()));
        Fetched<TablePage.PolicyForm> policy = map(policies.join(), (List<Policy> rules) -> rules.stream()
                .filter(rule -> table.equals(rule.pattern())).findFirst().map(TablePage.PolicyForm::of)
                .orElse(TablePage.PolicyForm.NONE));
        return new TablePage(table, grade.join(), chart, scanned, planned, jobs(table, jobs.join(), results.join(), scores.join()),
                timeline, governed.join(), policy, clock.instant());
    }

    /**
     * @param catalog only this catalog's tables (null: every table)
     * @param namespace only this namespace's tables (null: any)
     */
    public QueuePage queue(String catalog, String namespace) {
        var queue = services.fetch(() -> services.governor(api -> api.queue()));
        var engines = services.fetch(() -> services.governor(api -> api.engines()));
        var jobs = services.fetch(() -> services.executor(api -> api.jobs(config.recentJobs())));
        Fetched<Queue> queued = queue.join();
        Fetched<List<EngineSlots>> slots = engines.join();
        Instant now = clock.instant();
        Fetched<QueueBoard> board;
        if (!queued.ok()) {
            board = Fetched.failed(queued.problem());
        } else if (!slots.ok()) {
            board = Fetched.failed(slots.problem());
        } else {
            board = Fetched.of(QueueBoard.of(queued.value(), slots.value(), now, table -> inScope(table, catalog, namespace)));
        }
        Fetched<List<ExecutorJob>> finished = map(jobs.join(), list -> list.stream()
                .filter(job -> job.finishedAt() != null && inScope(job.table(), catalog, namespace))
                .limit(FINISHED_SHOWN).toList());
        return new QueuePage(catalog, namespace, board, finished, now);
    }

    /** Whether a table id belongs to the catalog and namespace asked for (null: any). */
    static boolean inScope(String table, String catalog, String namespace) {
        if (catalog == null && namespace == null) {
            return true;
        }
        try {
            TableId id = TableId.parse(table);
            return (catalog == null || id.catalog().equals(catalog))
                    && (namespace == null || id.namespaceName().equals(namespace));
        } catch (IllegalArgumentException | NullPointerException e) {
            return false;
        }
    }

    /** The renderers of the SQL that the table page shows, Trino first. */
    List<SqlRenderer> renderers() {
        return List.of(new TrinoRenderer(new TrinoSettings(new CatalogNames(config.sql().trinoCatalogs()),
                        TrinoSettings.PredicateForm.COLUMNS_WHERE_EXACT)),
                new SparkRenderer(new SparkSettings(new CatalogNames(config.sql().sparkCatalogs()), clock)));
    }

    private static TablePage.Jobs jobs(String table, Fetched<List<ExecutorJob>> jobs, Fetched<AuditPage> results,
                                       Fetched<PlannerApi.JobScores> scores) {
        List<String> problems = new ArrayList<>();
        if (!scores.ok()) {
            problems.add(scores.problemText() + " (expected against actual scores are missing)");
        }
        if (!jobs.ok()) {
            problems.add(jobs.problemText());
        }
        AuditTimeline.Results read = results.ok() ? AuditTimeline.operationResults(results.value().items())
                : new AuditTimeline.Results(List.of(), List.of());
        if (!results.ok()) {
            problems.add(results.problemText() + " (files before and after are missing)");
        }
        problems.addAll(read.unreadable());
        return new TablePage.Jobs(JobHistory.of(table, jobs.ok() ? jobs.value() : List.of(), read.finished(),
                scores.ok() ? scores.value().scores() : List.of(), JOBS_SHOWN),
                problems);
    }

    private static <T, R> Fetched<R> map(Fetched<T> fetched, java.util.function.Function<T, R> mapping) {
        if (!fetched.ok()) {
            return Fetched.failed(fetched.problem());
        }
        return Fetched.of(mapping.apply(fetched.value()));
    }
}
