package dev.cryo.iceberg.orphan;

import dev.cryo.iceberg.catalog.CatalogRegistry;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Where every table of the configured catalogs keeps files: its {@code location}, the folders its
 * {@code write.data.path}, {@code write.metadata.path}, {@code write.object-storage.path} (and the
 * older {@code write.folder-storage.path}) name, and the folders of every metadata file in its
 * metadata log (a table moved since keeps its old metadata there). Orphan removal of one table
 * reads them so that it never crosses into another's files (see {@link #around}).
 *
 * <p>Read with {@link #read} once per orphan removal, since tables are created and moved at any
 * time: that loads every table's metadata, one metadata file per table. A table whose current
 * metadata file is missing keeps the folder that file names off limits. Tables of catalogs Cryo is
 * not configured with are not seen; a table Cryo cannot name (a dot in its name) is.
 */
public final class TableLocations {

    /** How Iceberg's FileIOs (Hadoop, S3) name a file they cannot find. */
    private static final List<String> MISSING_FILE = List.of("for file: ", "File does not exist: ",
            "Location does not exist: ");

    /** Table properties that place a table's files outside {@code location/data} and {@code location/metadata}. */
    static final List<String> PATH_PROPERTIES = List.of(TableProperties.WRITE_DATA_LOCATION,
            TableProperties.WRITE_METADATA_LOCATION, TableProperties.OBJECT_STORE_PATH, "write.folder-storage.path");

    /**
     * One folder where a table keeps files.
     *
     * @param table the table, {@code catalog.namespace.table} as its catalog names it
     * @param source {@code location}, the property that names the folder, or {@code metadata log}
     * @param location the folder as spelled in the table's metadata
     */
    public record Root(String table, String source, String location) {
        public Root {
            requireNonNull(table, "table is null");
            requireNonNull(source, "source is null");
            requireNonNull(location, "location is null");
        }

        @Override
        public String toString() {
            return table + " (" + source + " " + location + ")";
        }
    }

    /** A table's roots, by the table's UUID: the same table reached through two catalogs is one table. */
    private record Entry(String uuid, List<Root> roots) {
    }

    private final List<Entry> entries;

    private TableLocations(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * The roots of every table of every configured catalog, read now.
     *
     * @throws Unreadable when a catalog cannot be listed or one of its tables cannot be loaded: a
     *                    table whose folders are unknown may lie inside any other
     */
    public static TableLocations read(CatalogRegistry catalogs) {
        requireNonNull(catalogs, "catalogs is null");
        List<Entry> entries = new ArrayList<>();
        for (String catalog : catalogs.names()) {
            List<TableIdentifier> identifiers;
            try {
                identifiers = catalogs.listIdentifiers(catalog);
            } catch (RuntimeException e) {
                throw new Unreadable("Cannot list the tables of catalog " + catalog + ": " + e.getMessage(), e);
            }
            for (TableIdentifier identifier : identifiers) {
                Table table;
                try {
                    table = catalogs.catalog(catalog).loadTable(identifier);
                } catch (NoSuchTableException e) {
                    continue; // dropped since the listing: its files are its catalog's garbage to collect
                } catch (NotFoundException e) {
                    // Its current metadata file is gone, so nobody can read it; its folder is still kept off limits.
                    entries.add(missingMetadata(catalog + "." + identifier, e));
                    continue;
                } catch (RuntimeException e) {
                    throw new Unreadable("Cannot load table " + catalog + "." + identifier + " to learn where it keeps"
                            + " its files: " + e.getMessage(), e);
                }
                entries.add(entry(catalog + "." + identifier, table));
            }
        }
        return new TableLocations(entries);
    }

    /** The roots of the given tables only: for tools and tests that know every table there is. */
    public static TableLocations of(Collection<? extends Table> tables) {
        List<Entry> entries = new ArrayList<>();
        for (Table table : tables) {
            entries.add(entry(table.name(), table));
        }
        return new TableLocations(entries);
    }

    private static Entry entry(String name, Table table) {
        List<Root> roots = new ArrayList<>();
        roots.add(new Root(name, "location", table.location()));
        for (String property : PATH_PROPERTIES) {
            String value = table.properties().get(property);
            if (value != null && !value.isBlank()) {
                roots.add(new Root(name, property, value));
            }
        }
        if (table instanceof HasTableOperations operations && operations.operations().current() != null) {
            TableMetadata metadata = operations.operations().current();
            Set<String> folders = new LinkedHashSet<>();
            metadata.previousFiles().forEach(entry -> folders.add(folder(entry.file())));
            if (metadata.metadataFileLocation() != null) {
                folders.add(folder(metadata.metadataFileLocation()));
            }
            folders.remove(null);
            folders.forEach(folder -> roots.add(new Root(name, "metadata log", folder)));
        }
        return new Entry(table.uuid() == null ? null : table.uuid().toString(), roots);
    }

    /**
     * A table whose current metadata file does not exist: the folder that file would lie in names
     * the table's location as far as anyone can know it ({@code <location>/metadata/<file>}); when
     * the failure does not name the file, nothing can be known and the catalogs are unreadable.
     */
    private static Entry missingMetadata(String name, NotFoundException e) {
        String message = String.valueOf(e.getMessage());
        String metadataFolder = null;
        for (String marker : MISSING_FILE) {
            int at = message.lastIndexOf(marker);
            if (at >= 0) {
                metadataFolder = folder(message.substring(at + marker.length()).trim());
                break;
            }
        }
        String location = metadataFolder == null ? null : folder(metadataFolder);
        if (location == null) {
            throw new Unreadable("Cannot load table " + name + " to learn where it keeps its files: " + message, e);
        }
        return new Entry(null, List.of(new Root(name, "location of its missing metadata", location)));
    }

    private static String folder(String file) {
        int slash = file.lastIndexOf('/');
        return slash <= 0 ? null : file.substring(0, slash);
    }

    /**
     * What other tables mean for the orphan removal of {@code table}: the roots of other tables that
     * lie under its location (their files are never its candidates), or why its location must not be
     * searched at all (a bucket or file system root, or a folder inside another table's root).
     */
    public Neighbours around(Table table, LocationEquivalence equivalence) {
        requireNonNull(table, "table is null");
        requireNonNull(equivalence, "equivalence is null");
        FileLocation location = FileLocation.parse(table.location()).canonical(equivalence);
        if (location.isRoot()) {
            return new Neighbours(List.of(), "its location " + table.location() + " is the root of its bucket,"
                    + " container or file system, where any other data may lie");
        }
        String uuid = table.uuid() == null ? null : table.uuid().toString();
        List<Root> inside = new ArrayList<>();
        for (Entry entry : entries) {
            if (uuid != null && uuid.equals(entry.uuid())) {
                continue;
            }
            for (Root root : entry.roots()) {
                FileLocation other = FileLocation.parse(root.location()).canonical(equivalence);
                if (location.isWithin(other)) {
                    return new Neighbours(List.of(), "its location " + table.location() + " lies inside the folder of"
                            + " another table: " + root);
                }
                if (other.relativeTo(location) != null) {
                    inside.add(root);
                }
            }
        }
        return new Neighbours(inside, null);
    }

    /**
     * Other tables around one table's location.
     *
     * @param inside roots of other tables under the location, whose files are never candidates
     * @param refusal why the location must not be searched, or null
     */
    public record Neighbours(List<Root> inside, String refusal) {
        public Neighbours {
            inside = List.copyOf(inside);
        }
    }

    /** The catalogs could not be read whole: nothing may be deleted, since any table could lie anywhere. */
    public static final class Unreadable extends IllegalStateException {
        Unreadable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
