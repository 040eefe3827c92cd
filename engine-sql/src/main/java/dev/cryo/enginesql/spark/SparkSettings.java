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
 * @param orphanRemoval whether remove_orphan_files deletes or only reports ({@code dry_run => true})
 */
public record SparkSettings(CatalogNames catalogNames, Clock clock, OrphanRemoval orphanRemoval) {

    /** What Spark's remove_orphan_files does with the orphans it finds. */
    public enum OrphanRemoval {
        DELETE,
        DRY_RUN
    }

    public SparkSettings {
        requireNonNull(catalogNames, "catalogNames is null");
        requireNonNull(clock, "clock is null");
        requireNonNull(orphanRemoval, "orphanRemoval is null");
    }

    /** Settings under which remove_orphan_files deletes. */
    public SparkSettings(CatalogNames catalogNames, Clock clock) {
        this(catalogNames, clock, OrphanRemoval.DELETE);
    }

    public static SparkSettings systemClock(CatalogNames catalogNames) {
        return new SparkSettings(catalogNames, Clock.systemUTC());
    }
}
