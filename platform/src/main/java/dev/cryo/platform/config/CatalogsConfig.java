package dev.cryo.platform.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithParentName;

import java.util.Map;

/**
 * The Iceberg catalogs a service reads or maintains, by name, each with the standard Iceberg
 * catalog properties (the keys users give Spark): {@code cryo.catalogs.<name>.type=jdbc},
 * {@code cryo.catalogs.<name>.uri=…}, {@code cryo.catalogs.<name>.warehouse=…},
 * {@code cryo.catalogs.<name>.io-impl=…}, {@code cryo.catalogs.<name>.jdbc.user=…}. The catalog
 * name is the first part of every table id. Secrets belong in environment variables, referenced
 * as {@code ${MY_SECRET}} in the property value.
 */
@ConfigMapping(prefix = "cryo.catalogs")
public interface CatalogsConfig {

    /** Catalog properties by catalog name. */
    @WithParentName
    Map<String, Map<String, String>> catalogs();
}
