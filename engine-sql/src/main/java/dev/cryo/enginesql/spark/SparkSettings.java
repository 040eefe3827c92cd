package dev.cryo.enginesql.spark;

import dev.cryo.enginesql.CatalogNames;

import java.time.Clock;

import static java.util.Objects.requireNonNull;

/**
 * How Cryo renders SQL for one Spark (Connect) server.
 *
 * @param catalogNames Spark's names of Cryo's catalogs (the {@code spark.sql.catalog.<name>} keys)
 * @param clock the time that {@code older_than} arguments count back from: Spark's expire and
 *              orphan procedures take an instant, not an age
 */
public record SparkSettings(CatalogNames catalogNames, Clock clock) {

    public SparkSettings {
        requireNonNull(catalogNames, "catalogNames is null");
        requireNonNull(clock, "clock is null");
    }

    public static SparkSettings systemClock(CatalogNames catalogNames) {
        return new SparkSettings(catalogNames, Clock.systemUTC());
    }
}
