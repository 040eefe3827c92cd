package dev.cryo.executor.iceberg;

import dev.cryo.contracts.TableId;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.orphan.TableLocations;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.NoSuchTableException;

import static java.util.Objects.requireNonNull;

/** Loads tables from the configured catalogs, naming what is missing with the executor's error codes. */
public final class TableLoader {

    private final CatalogRegistry catalogs;

    public TableLoader(CatalogRegistry catalogs) {
        this.catalogs = requireNonNull(catalogs, "catalogs is null");
    }

    /** Where every table of the configured catalogs keeps its files, read now (see {@link TableLocations#read}). */
    public TableLocations locations() {
        return TableLocations.read(catalogs);
    }

    public Table load(TableId tableId) {
        try {
            return catalogs.load(tableId);
        } catch (CatalogRegistry.UnknownCatalogException e) {
            throw new CryoException(ExecutorErrorCode.CATALOG_NOT_FOUND, "Cannot load table " + tableId + ": "
                    + e.getMessage() + "; configure it as cryo.catalogs." + tableId.catalog() + ".*", e);
        } catch (NoSuchTableException e) {
            throw new CryoException(ExecutorErrorCode.TABLE_NOT_FOUND, "Cannot load table " + tableId + ": "
                    + e.getMessage(), e);
        } catch (CryoException e) {
            throw e;
        } catch (RuntimeException e) {
            // The catalog did not answer (its database restarting, the network): an external fault, so the job's
            // record is retried by the consumer instead of being dead-lettered (fault-tests, PostgreSQL restart).
            throw new CryoException(ExecutorErrorCode.STORAGE_FAILURE, "Cannot load table " + tableId
                    + ": its catalog did not answer: " + e.getMessage(), e);
        }
    }
}
