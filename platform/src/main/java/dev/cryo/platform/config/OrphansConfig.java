package dev.cryo.platform.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.List;

/**
 * What the services that deal with orphan files share, so they agree: how the scanner (which counts
 * them) and the executor (which deletes them) tell that two spellings of a location name the same
 * file, and whether the planner (which puts the age floor into plans) and the executor (which runs
 * them) accept floors under 24 hours.
 */
@ConfigMapping(prefix = "cryo.orphans")
public interface OrphansConfig {

    /**
     * Groups of schemes that name the same storage, each group's names separated by spaces, groups by
     * commas ({@code s3 s3a s3n}, Iceberg's default); {@code none} for no group.
     */
    @WithDefault("s3 s3a s3n")
    List<String> equivalentSchemes();

    /**
     * Groups of authorities that name the same storage, e.g. {@code namenode:8020 namenode}; groups
     * separated by commas; {@code none} (the default) for no group.
     */
    @WithDefault("none")
    List<String> equivalentAuthorities();

    /**
     * Allows orphan age floors under 24 hours, in the planner's policies and the executor's default;
     * every run below it says so in its result (and so in the audit log).
     */
    @WithDefault("false")
    boolean allowUnsafeFloor();
}
