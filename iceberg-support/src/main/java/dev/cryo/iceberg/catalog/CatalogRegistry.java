package dev.cryo.iceberg.catalog;

import dev.cryo.contracts.TableId;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NotAuthorizedException;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * Iceberg catalogs by name, built from the standard Iceberg catalog properties — the same keys
 * users give Spark or Trino: {@code type} (jdbc, rest, hadoop, nessie, hive, glue) or
 * {@code catalog-impl}, {@code uri}, {@code warehouse}, {@code io-impl}, {@code jdbc.*},
 * {@code s3.*}, … Catalog names are the first part of a {@link TableId}.
 */
public final class CatalogRegistry implements Closeable {

    private static final System.Logger LOG = System.getLogger(CatalogRegistry.class.getName());
    private static final String LOCAL_IMPL = "fs.file.impl";
    private static final String LOCAL_CACHE_DISABLED = "fs.file.impl.disable.cache";
    private static final int JDBC_START_ATTEMPTS = 4;
    /** duplicate_table, duplicate_column, duplicate_object, unique_violation */
    private static final Set<String> SCHEMA_RACE_STATES = Set.of("42P07", "42701", "42710", "23505");

    private final Map<String, Catalog> catalogs;

    private CatalogRegistry(Map<String, Catalog> catalogs) {
        this.catalogs = catalogs;
    }

    /**
     * Builds every catalog. A catalog that cannot be built fails the whole registry with a
     * message naming it, so a typo in a property is seen at start-up, not at the first scan.
     */
    public static CatalogRegistry create(Map<String, Map<String, String>> catalogProperties) {
        requireNonNull(catalogProperties, "catalogProperties is null");
        Map<String, Catalog> catalogs = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, String>> entry : catalogProperties.entrySet()) {
            catalogs.put(entry.getKey(), build(entry.getKey(), entry.getValue()));
        }
        return new CatalogRegistry(catalogs);
    }

    /** A registry over catalogs that the caller built. */
    public static CatalogRegistry of(Map<String, Catalog> catalogs) {
        return new CatalogRegistry(new LinkedHashMap<>(catalogs));
    }

    static Catalog build(String name, Map<String, String> properties) {
        Map<String, String> effective = new HashMap<>(properties);
        if (!effective.containsKey(CatalogUtil.ICEBERG_CATALOG_TYPE) && !effective.containsKey(CatalogProperties.CATALOG_IMPL)) {
            throw new IllegalArgumentException("Cannot configure catalog " + name
                    + ": set its 'type' (jdbc, rest, hadoop, nessie, hive, glue) or 'catalog-impl'");
        }
        CatalogEndpoints.require(name, effective);
        if ("jdbc".equals(effective.get(CatalogUtil.ICEBERG_CATALOG_TYPE))) {
            // Trino's JDBC catalog reads the V1 layout; new catalogs get it unless told otherwise.
            effective.putIfAbsent("jdbc.schema-version", "V1");
        }
        for (int attempt = 1; ; attempt++) {
            try {
                return CatalogUtil.buildIcebergCatalog(name, effective, hadoopConfiguration(effective));
            } catch (RuntimeException e) {
                if (attempt < JDBC_START_ATTEMPTS && lostSchemaRace(e)) {
                    // another process created the JDBC catalog's tables at the same moment: they exist now
                    LOG.log(System.Logger.Level.INFO, "Catalog " + name + ": another client was creating the JDBC"
                            + " catalog's tables at the same time; initializing again (attempt " + (attempt + 1) + ")");
                    pause(attempt);
                    continue;
                }
                throw unusable(name, properties, e);
            }
        }
    }

    /**
     * Whether building a JDBC catalog failed because another client created or upgraded its tables
     * concurrently. Iceberg's JdbcCatalog checks for {@code iceberg_tables} and its
     * {@code iceberg_type} column and then creates or alters them without a lock, so services
     * starting together on a fresh catalog database race; the loser gets PostgreSQL's
     * duplicate-table, duplicate-column or unique-violation (on {@code pg_type}) error.
     */
    static boolean lostSchemaRace(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                for (SQLException next = sql; next != null; next = next.getNextException()) {
                    if (SCHEMA_RACE_STATES.contains(next.getSQLState())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(100L * attempt);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while initializing a catalog", interrupted);
        }
    }

    private static IllegalArgumentException unusable(String name, Map<String, String> properties, RuntimeException e) {
        String reason = CatalogSecrets.withoutSecrets(String.valueOf(e.getMessage()), properties);
        if (e instanceof NotAuthorizedException) {
            reason = "its server refused the credentials (check its 'credential' or 'token', 'scope' and"
                    + " 'oauth2-server-uri'): " + reason;
        }
        // the cause goes along only when no message down its chain holds a secret, so a logged stack trace cannot leak one
        return new IllegalArgumentException("Cannot configure catalog " + name + ": " + reason,
                CatalogSecrets.holdsSecret(e, properties) ? null : e);
    }

    /**
     * Hadoop settings for HadoopFileIO on local disks: the raw local file system writes no
     * {@code .crc} side files (which would otherwise look like orphans). Properties starting
     * with {@code hadoop.} are passed through without the prefix.
     *
     * <p>The configuration starts empty instead of from Hadoop's {@code core-default.xml}: Iceberg's
     * Parquet reader copies the configuration for every file it opens, and copying those several
     * hundred defaults was about a third of the native rewrite's CPU. Hadoop's file systems read
     * each setting with the same default in code; a catalog that needs one of them sets it with the
     * {@code hadoop.} prefix.
     */
    public static Configuration hadoopConfiguration(Map<String, String> properties) {
        Configuration configuration = new Configuration(false);
        configuration.set(LOCAL_IMPL, RawLocalFileSystem.class.getName());
        properties.forEach((key, value) -> {
            if (key.startsWith("hadoop.")) {
                configuration.set(key.substring("hadoop.".length()), value);
            }
        });
        if (!properties.containsKey("hadoop." + LOCAL_CACHE_DISABLED)) {
            configuration.setBoolean(LOCAL_CACHE_DISABLED, !sharedLocalFileSystemIsConfigured(configuration));
        }
        return configuration;
    }

    /**
     * Whether the file system that Hadoop caches for {@code file:} URIs is of the configured
     * class. Hadoop caches one instance per scheme and user, whatever the configuration that asks
     * for it, and asking creates it from this configuration when none is cached yet. Sharing it
     * matters: creating a file system costs about a millisecond of class-path scanning, and a
     * rewrite opens each input file twice (8 % of the native rewrite's CPU in a profile of
     * 2026-12-01). But if a component cached a checksumming one first, this configuration gets an
     * instance of its own per file instead, so that no {@code .crc} file is ever written.
     */
    private static boolean sharedLocalFileSystemIsConfigured(Configuration configuration) {
        Class<?> configured = configuration.getClass(LOCAL_IMPL, null);
        if (configured == null) {
            return false;
        }
        try {
            return configured.isInstance(FileSystem.get(URI.create("file:///"), configuration));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    public Set<String> names() {
        return new TreeSet<>(catalogs.keySet());
    }

    /** The catalog of that name, or an error naming the configured ones. */
    public Catalog catalog(String name) {
        Catalog catalog = catalogs.get(name);
        if (catalog == null) {
            throw new UnknownCatalogException("Cannot find catalog '" + name + "': configured catalogs are " + names());
        }
        return catalog;
    }

    public Table load(TableId table) {
        return catalog(table.catalog()).loadTable(identifier(table));
    }

    public static TableIdentifier identifier(TableId table) {
        return TableIdentifier.of(Namespace.of(table.namespace().toArray(String[]::new)), table.table());
    }

    public static TableId tableId(String catalog, TableIdentifier identifier) {
        return new TableId(catalog, List.of(identifier.namespace().levels()), identifier.name());
    }

    /**
     * Every table of a catalog that Cryo can name, walking nested namespaces where the catalog has
     * them. A table whose name {@link TableId} refuses (a {@code .} or a backtick inside a name) is
     * left out with a warning naming it, so that it cannot hide the catalog's other tables.
     */
    public List<TableId> listTables(String catalogName) {
        List<TableId> tables = new ArrayList<>();
        listIdentifiers(catalogName).forEach(identifier -> addNameable(catalogName, identifier, tables));
        return tables;
    }

    /**
     * Every table of a catalog as the catalog names it, those Cryo cannot name included: where
     * tables keep their files matters whether or not Cryo maintains them.
     */
    public List<TableIdentifier> listIdentifiers(String catalogName) {
        Catalog catalog = catalog(catalogName);
        List<TableIdentifier> tables = new ArrayList<>();
        if (catalog instanceof SupportsNamespaces namespaces) {
            walk(catalog, namespaces, Namespace.empty(), tables);
        } else {
            tables.addAll(catalog.listTables(Namespace.empty()));
        }
        return tables;
    }

    private static void walk(Catalog catalog, SupportsNamespaces namespaces, Namespace parent, List<TableIdentifier> tables) {
        for (Namespace namespace : namespaces.listNamespaces(parent)) {
            tables.addAll(catalog.listTables(namespace));
            walk(catalog, namespaces, namespace, tables);
        }
    }

    private static void addNameable(String catalogName, TableIdentifier identifier, List<TableId> tables) {
        try {
            tables.add(tableId(catalogName, identifier));
        } catch (IllegalArgumentException e) {
            LOG.log(System.Logger.Level.WARNING, "Cryo leaves table {0} of catalog {1} alone: {2}", identifier, catalogName,
                    e.getMessage());
        }
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (Catalog catalog : catalogs.values()) {
            if (catalog instanceof Closeable closeable) {
                try {
                    closeable.close();
                } catch (IOException e) {
                    failure = e;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** A table id names a catalog that is not configured. */
    public static class UnknownCatalogException extends IllegalArgumentException {
        public UnknownCatalogException(String message) {
            super(message);
        }
    }
}
