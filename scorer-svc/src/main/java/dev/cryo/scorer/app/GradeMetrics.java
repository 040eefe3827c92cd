package dev.cryo.scorer.app;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.scorer.config.ScorerConfig;
import dev.cryo.scorer.persistence.CurrentRow;
import dev.cryo.scorer.persistence.CurrentGrades;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Gauges of the current grades: {@code cryo_tables_by_grade{grade}}, {@code cryo_table_score{table}}
 * and {@code cryo_deductions{check,severity}} (tables currently losing points on a check).
 *
 * <p>The state is loaded from the database at startup and every refresh interval (checked when a
 * scan is graded), and updated after each grading this instance commits. So every instance reports
 * every table: aggregate with {@code max}, not {@code sum}. Cardinality: 5 + 28 series, plus one
 * score series per graded table ({@code cryo.scorer.metrics.table-scores=false} drops those).
 */
@ApplicationScoped
public class GradeMetrics {

    private record TableState(int score, Grade grade, Set<String> deductions) {
    }

    private final Map<String, TableState> tables = new ConcurrentHashMap<>();
    private final Set<String> scoreGauges = ConcurrentHashMap.newKeySet();
    private final MeterRegistry registry;
    private final CurrentGrades grades;
    private final ScorerConfig.Metrics config;
    private final Clock clock;
    private volatile Instant lastReload = Instant.MIN;

    GradeMetrics(MeterRegistry registry, CurrentGrades grades, ScorerConfig config, Clock clock) {
        this.registry = registry;
        this.grades = grades;
        this.config = config.metrics();
        this.clock = clock;
        for (Grade grade : Grade.values()) {
            Gauge.builder("cryo.tables.by.grade", this, metrics -> metrics.tablesWith(grade))
                    .description("Tables whose current grade is this grade")
                    .tag("grade", grade.name())
                    .register(registry);
        }
        for (Check check : Check.values()) {
            for (Severity severity : Severity.values()) {
                String key = key(check, severity);
                Gauge.builder("cryo.deductions", this, metrics -> metrics.tablesDeducted(key))
                        .description("Tables whose current grade loses points on this check")
                        .tag("check", check.id())
                        .tag("severity", severity.id())
                        .register(registry);
            }
        }
    }

    void onStart(@Observes StartupEvent event) {
        reload();
    }

    /** After a grading became a table's current grade. */
    void graded(String table, int score, Grade grade, List<Deduction> deductions) {
        put(table, score, grade, deductions);
        if (Instant.now(clock).isAfter(lastReload.plus(config.refreshInterval()))) {
            reload();
        }
    }

    void reload() {
        List<CurrentRow> rows = grades.allCurrent();
        rows.forEach(row -> put(row.table().toString(), row.score(), row.grade(), row.deductions()));
        lastReload = Instant.now(clock);
        Log.debugf("Reloaded the grade gauges: %d tables", rows.size());
    }

    private void put(String table, int score, Grade grade, List<Deduction> deductions) {
        tables.put(table, new TableState(score, grade,
                Set.copyOf(deductions.stream().map(deduction -> key(deduction.check(), deduction.severity())).toList())));
        if (config.tableScores() && scoreGauges.add(table)) {
            Gauge.builder("cryo.table.score", this, metrics -> metrics.scoreOf(table))
                    .description("The current score of a table, 0..100")
                    .tag("table", table)
                    .register(registry);
        }
    }

    private double tablesWith(Grade grade) {
        return tables.values().stream().filter(state -> state.grade() == grade).count();
    }

    private double tablesDeducted(String key) {
        return tables.values().stream().filter(state -> state.deductions().contains(key)).count();
    }

    private double scoreOf(String table) {
        TableState state = tables.get(table);
        return state == null ? Double.NaN : state.score();
    }

    private static String key(Check check, Severity severity) {
        return check.id() + "/" + severity.id();
    }
}
