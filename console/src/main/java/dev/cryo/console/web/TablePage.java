package dev.cryo.console.web;

import dev.cryo.console.client.Fetched;
import dev.cryo.console.client.GovernorApi.GovernedTable;
import dev.cryo.console.client.GovernorApi.Policy;
import dev.cryo.console.client.PlannerApi.CurrentPlan;
import dev.cryo.console.client.ScorerApi.TableGrade;
import dev.cryo.console.domain.AuditTimeline;
import dev.cryo.console.domain.GradeChart;
import dev.cryo.console.domain.HeatMap;
import dev.cryo.console.domain.JobHistory;
import dev.cryo.console.domain.PlanSql;
import dev.cryo.console.domain.PolicyEdit;
import dev.cryo.contracts.event.TableScanned;

import java.time.Instant;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The table page's content: each part from its own service, each with the problem that kept it empty.
 *
 * @param table the table id
 * @param grade its current grade with every deduction (scorer)
 * @param chart its grade history (scorer)
 * @param scan its last scan and the heat map of small files drawn from it (scanner)
 * @param plan its newest plan with the SQL each engine would run (planner, engine-sql)
 * @param jobs its jobs with each step's files before and after (executor, audit)
 * @param timeline its audit events, one chain per table change (audit)
 * @param governed its resolved policy, pause, lock and queued plans (governor)
 * @param policy its own policy rule as the edit form shows it (governor)
 */
public record TablePage(String table, Fetched<TableGrade> grade, Fetched<GradeChart> chart, Fetched<Scan> scan,
                        Fetched<Plan> plan, Jobs jobs, Fetched<List<AuditTimeline.Chain>> timeline,
                        Fetched<GovernedTable> governed, Fetched<PolicyForm> policy, Instant generatedAt) {

    public TablePage {
        requireNonNull(table, "table is null");
    }

    /** The last scan and its heat map. */
    public record Scan(TableScanned scan, HeatMap heatMap) {
    }

    /** The newest plan and its rendered SQL. */
    public record Plan(CurrentPlan current, PlanSql sql) {
    }

    /**
     * Jobs and why some of their results may be missing.
     *
     * @param problems services that did not answer, audit rows that did not read
     */
    public record Jobs(List<JobHistory.Job> jobs, List<String> problems) {
        public Jobs {
            jobs = List.copyOf(jobs);
            problems = List.copyOf(problems);
        }
    }

    /**
     * The edit form of the table's own policy rule (the governor pattern that is exactly the table id).
     *
     * @param exists whether the table has its own rule
     */
    public record PolicyForm(boolean exists, String cooldown, String windows, String engine, String updatedBy,
                             Instant updatedAt) {

        static final PolicyForm NONE = new PolicyForm(false, "", "", "", null, null);

        static PolicyForm of(Policy policy) {
            return new PolicyForm(true, policy.cooldown() == null ? "" : policy.cooldown(),
                    PolicyEdit.windowsText(policy.windows()), policy.engine() == null ? "" : policy.engine(),
                    policy.updatedBy(), policy.updatedAt());
        }

        public boolean engineIs(String engine) {
            return this.engine.equals(engine);
        }
    }

    /** Whether the governor reports a pause that holds the table. */
    public boolean paused() {
        return governed.ok() && governed.value().pausedBy() != null;
    }
}
