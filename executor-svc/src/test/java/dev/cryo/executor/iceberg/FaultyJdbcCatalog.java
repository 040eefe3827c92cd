package dev.cryo.executor.iceberg;

import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.jdbc.UncheckedInterruptedException;
import org.apache.iceberg.jdbc.UncheckedSQLException;

import java.sql.SQLException;

import static dev.cryo.executor.iceberg.AmbiguousCommitTest.Fault;

/**
 * Iceberg's JDBC catalog whose next commit fails as {@link AmbiguousCommitTest#next} says, and whose
 * metadata reads fail while {@link AmbiguousCommitTest#unreachable} is set. Loaded by name
 * ({@code catalog-impl}), so it is public with a no-argument constructor.
 */
public final class FaultyJdbcCatalog extends JdbcCatalog {

    @Override
    protected TableOperations newTableOps(TableIdentifier identifier) {
        return new FaultyOperations(super.newTableOps(identifier));
    }

    private record FaultyOperations(TableOperations delegate) implements TableOperations {
        @Override
        public void commit(TableMetadata base, TableMetadata metadata) {
            Fault fault = AmbiguousCommitTest.next;
            AmbiguousCommitTest.next = Fault.NONE;
            switch (fault) {
                case NONE -> delegate.commit(base, metadata);
                case LANDS_THEN_CONNECTIONS_TERMINATED -> {
                    delegate.commit(base, metadata);
                    AmbiguousCommitTest.terminateCatalogConnections();
                    throw new UncheckedSQLException(new SQLException("An I/O error occurred while sending to the backend",
                            "08006"), "Database Connection failed");
                }
                case LANDS_THEN_CATALOG_UNREACHABLE -> {
                    delegate.commit(base, metadata);
                    AmbiguousCommitTest.unreachable = true;
                    throw new UncheckedSQLException(new SQLException("Connection refused", "08001"),
                            "Database Connection failed");
                }
                case LANDS_THEN_INTERRUPTED -> {
                    delegate.commit(base, metadata);
                    Thread.currentThread().interrupt();
                    throw new UncheckedInterruptedException(new InterruptedException(), "Interrupted in call to commit");
                }
                case INTERRUPTED_BEFORE_ATTEMPT -> {
                    Thread.currentThread().interrupt();
                    throw new UncheckedInterruptedException(new InterruptedException(), "Interrupted in call to commit");
                }
            }
        }

        @Override
        public TableMetadata current() {
            return delegate.current();
        }

        @Override
        public TableMetadata refresh() {
            if (AmbiguousCommitTest.unreachable) {
                throw new UncheckedSQLException(new SQLException("Connection refused", "08001"),
                        "Failed to get table from catalog: Database Connection failed");
            }
            return delegate.refresh();
        }

        @Override
        public FileIO io() {
            return delegate.io();
        }

        @Override
        public EncryptionManager encryption() {
            return delegate.encryption();
        }

        @Override
        public String metadataFileLocation(String fileName) {
            return delegate.metadataFileLocation(fileName);
        }

        @Override
        public LocationProvider locationProvider() {
            return delegate.locationProvider();
        }

        @Override
        public TableOperations temp(TableMetadata uncommittedMetadata) {
            return delegate.temp(uncommittedMetadata);
        }

        @Override
        public long newSnapshotId() {
            return delegate.newSnapshotId();
        }

        @Override
        public boolean requireStrictCleanup() {
            return delegate.requireStrictCleanup();
        }
    }
}
