package dev.cryo.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Micrometer meters the services register, found in their sources, and how their names look in
 * Prometheus: dots become underscores, counters end in {@code _total}, timers export
 * {@code _seconds_count}, {@code _seconds_sum} and {@code _seconds_max}, and a base unit
 * ({@code .baseUnit("records")}) is appended to the name.
 */
public final class Meters {

    private static final Pattern REGISTRATION = Pattern.compile(
            "(?:counter|timer|gauge|summary|Gauge\\.builder|Timer\\.builder|Counter\\.builder|DistributionSummary\\.builder)"
                    + "\\(\\s*\"(cryo\\.[a-z0-9.]+)\"");
    private static final Pattern SUFFIX = Pattern.compile(
            "(?:_[a-z]+)?(?:_total|_count|_sum|_max|_bucket)?");

    private Meters() {
    }

    /** Every meter name registered in the sources of the given modules, in Prometheus form. */
    public static Set<String> prometheusNames(RepositoryLayout repository, Iterable<String> modules) {
        Set<String> names = new TreeSet<>();
        for (String module : modules) {
            Path sources = repository.module(module).resolve("src/main/java");
            if (!Files.isDirectory(sources)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                    Matcher registration = REGISTRATION.matcher(Files.readString(file));
                    while (registration.find()) {
                        names.add(registration.group(1).replace('.', '_'));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read the sources of " + module, e);
            }
        }
        return names;
    }

    /** Whether a series name in a query is one of a meter's Prometheus series. */
    public static boolean isSeriesOf(String series, Set<String> meters) {
        return meters.stream().anyMatch(meter -> series.startsWith(meter)
                && SUFFIX.matcher(series.substring(meter.length())).matches());
    }
}
