package dev.cryo.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The Grafana dashboard shows what the issue asks for, from series that the services really export. */
class DashboardTest {

    /** Series from outside Cryo that the dashboard may use: Strimzi's Kafka Exporter. */
    private static final Set<String> FOREIGN_SERIES = Set.of("kafka_consumergroup_lag");
    private static final Pattern SERIES = Pattern.compile("\\b((?:cryo|kafka)_[a-z0-9_]+)");

    private final ValidationContext context = ValidationContext.ofRepository();

    @Test
    void everySeriesTheDashboardQueriesIsExportedByAService() throws IOException {
        Set<String> meters = meters();
        List<String> unknown = new ArrayList<>();
        for (String series : series(dashboard())) {
            if (!FOREIGN_SERIES.contains(series) && !Meters.isSeriesOf(series, meters)) {
                unknown.add(series);
            }
        }

        assertThat(meters).contains("cryo_table_score", "cryo_governor_deferred", "cryo_executor_jobs");
        assertThat(unknown).as("series that no service registers (meters found: %s)", meters).isEmpty();
    }

    @Test
    void theDashboardShowsGradesQueueDeferralsOutcomesDurationsAndLag() throws IOException {
        List<String> queries = queries(dashboard());

        assertThat(queries)
                .anySatisfy(query -> assertThat(query).contains("cryo_table_score").contains("by (table)"))
                .anySatisfy(query -> assertThat(query).contains("cryo_tables_by_grade").contains("by (grade)"))
                .anySatisfy(query -> assertThat(query).contains("cryo_governor_queue_depth"))
                .anySatisfy(query -> assertThat(query).contains("cryo_governor_deferred_total").contains("by (reason)"))
                .anySatisfy(query -> assertThat(query).contains("cryo_executor_jobs_total").contains("by (outcome)"))
                .anySatisfy(query -> assertThat(query).contains("cryo_executor_step_duration_seconds"))
                .anySatisfy(query -> assertThat(query).contains("kafka_consumergroup_lag"));
    }

    @Test
    void aSeriesThatNoServiceExportsIsCaught() {
        Set<String> meters = meters();

        assertThat(Meters.isSeriesOf("cryo_executor_step_duration_seconds_sum", meters)).isTrue();
        assertThat(Meters.isSeriesOf("cryo_audit_ingest_lag_records", meters)).isTrue();
        assertThat(Meters.isSeriesOf("cryo_governor_deferals_total", meters)).isFalse();
    }

    private Set<String> meters() {
        Set<String> modules = new LinkedHashSet<>();
        context.architecture().services()
                .forEach(service -> modules.addAll(ServiceConfiguration.modulesOf(context.repository(), service)));
        return Meters.prometheusNames(context.repository(), modules);
    }

    private JsonNode dashboard() throws IOException {
        return new ObjectMapper().readTree(context.repository().dashboard().toFile());
    }

    private static List<String> queries(JsonNode dashboard) {
        List<String> queries = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(target.path("expr").asText());
            }
        }
        return queries;
    }

    private static Set<String> series(JsonNode dashboard) {
        Set<String> series = new LinkedHashSet<>();
        for (String query : queries(dashboard)) {
            Matcher matcher = SERIES.matcher(query);
            while (matcher.find()) {
                series.add(matcher.group(1));
            }
        }
        return series;
    }
}
