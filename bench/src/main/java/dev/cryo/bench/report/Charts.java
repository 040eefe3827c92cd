package dev.cryo.bench.report;

import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.ScenarioResult;
import dev.cryo.bench.domain.Series;
import dev.cryo.bench.domain.Summary;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The report's PNG plots, drawn with XChart (headless). */
final class Charts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 420;

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private final Path directory;

    Charts(Path directory) {
        this.directory = directory;
    }

    /**
     * One grouped bar chart per unit of the scenario's compared metrics (means, with the 95 %
     * interval as error bars when there is one). Returns the file names written.
     */
    List<String> comparisons(String prefix, ScenarioResult scenario) {
        Map<String, List<Metric>> byUnit = new LinkedHashMap<>();
        Map<String, Set<String>> contendersByMetric = new LinkedHashMap<>();
        for (Metric metric : scenario.metrics()) {
            contendersByMetric.computeIfAbsent(metric.name(), ignored -> new LinkedHashSet<>()).add(metric.contender());
        }
        for (Metric metric : scenario.metrics()) {
            if (contendersByMetric.get(metric.name()).size() > 1 && metric.summary().mean() != null) {
                byUnit.computeIfAbsent(metric.unit(), ignored -> new ArrayList<>()).add(metric);
            }
        }
        List<String> files = new ArrayList<>();
        int index = 0;
        for (Map.Entry<String, List<Metric>> unit : byUnit.entrySet()) {
            List<String> names = new ArrayList<>(new LinkedHashSet<>(unit.getValue().stream().map(Metric::name).toList()));
            Set<String> contenders = new LinkedHashSet<>(unit.getValue().stream().map(Metric::contender).toList());
            CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                    .title("Scenario " + scenario.id() + ": " + scenario.title())
                    .yAxisTitle(unit.getKey().isBlank() ? "count" : unit.getKey()).build();
            // more than two contenders (both engines of a scenario): the legend goes beside the bars, not over them
            chart.getStyler().setLegendPosition(contenders.size() > 2 ? Styler.LegendPosition.OutsideE
                    : Styler.LegendPosition.InsideNE);
            chart.getStyler().setXAxisLabelRotation(20);
            for (String contender : contenders) {
                List<Double> means = new ArrayList<>();
                List<Double> errors = new ArrayList<>();
                for (String name : names) {
                    Summary summary = unit.getValue().stream()
                            .filter(metric -> metric.name().equals(name) && metric.contender().equals(contender))
                            .findFirst().map(Metric::summary).orElse(null);
                    means.add(summary == null || summary.mean() == null ? 0.0 : summary.mean());
                    errors.add(summary == null || !summary.hasInterval() ? 0.0 : summary.ciHigh() - summary.mean());
                }
                chart.addSeries(contender, names, means, errors);
            }
            String file = prefix + "-s" + scenario.id() + "-" + (index++) + ".png";
            save(chart, file);
            files.add(file);
        }
        return files;
    }

    /** One line chart per chart name of the scenario's series. */
    List<String> curves(String prefix, ScenarioResult scenario) {
        Map<String, List<Series>> byChart = new LinkedHashMap<>();
        for (Series series : scenario.series()) {
            if (!series.x().isEmpty()) {
                byChart.computeIfAbsent(series.chart(), ignored -> new ArrayList<>()).add(series);
            }
        }
        List<String> files = new ArrayList<>();
        for (Map.Entry<String, List<Series>> entry : byChart.entrySet()) {
            Series first = entry.getValue().get(0);
            XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                    .title("Scenario " + scenario.id() + ": " + entry.getKey())
                    .xAxisTitle(first.xLabel()).yAxisTitle(first.yLabel()).build();
            chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
            for (Series series : entry.getValue()) {
                chart.addSeries(series.name(), series.x(), series.y());
            }
            String file = prefix + "-s" + scenario.id() + "-" + slug(entry.getKey()) + ".png";
            save(chart, file);
            files.add(file);
        }
        return files;
    }

    private void save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, String file) {
        try {
            Files.createDirectories(directory);
            BitmapEncoder.saveBitmap(chart, directory.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the plot " + directory.resolve(file) + ": " + e.getMessage(), e);
        }
    }

    static String slug(String text) {
        return text.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
    }
}
