package dev.cryo.executor.iceberg;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * The parameters an operation runs with, the same on every engine; Trino and Spark get them
 * written out in their statements, so an engine's own default never decides how much history or
 * which files go.
 * <ul>
 *   <li>Rewrites: the plan's target file size, else the table's, else Iceberg's default.</li>
 *   <li>expire_snapshots: the more conservative of the plan's value and the table's live
 *       {@code history.expire.*} property read at run time (an owner who raised the retention after
 *       the scan gets the longer one), the executor's default when neither is set.</li>
 *   <li>remove_orphan_files: the plan's age floor or the executor's default, never under the
 *       minimum unless allowed ({@link OrphanRemovalSettings}).</li>
 * </ul>
 */
public final class OperationDefaults {

    private final Duration snapshotRetention;
    private final int retainLast;
    private final OrphanRemovalSettings orphans;

    public OperationDefaults(Duration snapshotRetention, int retainLast, OrphanRemovalSettings orphans) {
        this.snapshotRetention = requireNonNull(snapshotRetention, "snapshotRetention is null");
        if (retainLast < 1) {
            throw new IllegalArgumentException("Cannot configure snapshot expiry: retain-last must be at least 1");
        }
        this.retainLast = retainLast;
        this.orphans = requireNonNull(orphans, "orphans is null");
    }

    /**
     * @throws CryoException UNSAFE_PARAMETER when the orphan age floor is below the minimum and unsafe floors are refused
     */
    public OperationParameters resolve(Table table, Operation operation, OperationParameters planned) {
        requireNonNull(table, "table is null");
        requireNonNull(planned, "planned is null");
        return switch (operation) {
            case CONVERT_DELETES, REWRITE_POSITION_DELETES, OPTIMIZE -> new OperationParameters(
                    planned.targetFileSizeBytes() != null ? planned.targetFileSizeBytes()
                            : PropertyUtil.propertyAsLong(table.properties(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT),
                    planned.snapshotRetention(), planned.retainLast(), planned.orphanAgeFloor());
            case EXPIRE_SNAPSHOTS -> new OperationParameters(planned.targetFileSizeBytes(),
                    snapshotRetention(table, planned.snapshotRetention()), retainLast(table, planned.retainLast()),
                    planned.orphanAgeFloor());
            case REMOVE_ORPHAN_FILES -> new OperationParameters(planned.targetFileSizeBytes(), planned.snapshotRetention(),
                    planned.retainLast(), orphanFloor(planned.orphanAgeFloor()));
            case COMPUTE_STATISTICS, OPTIMIZE_MANIFESTS -> planned;
        };
    }

    /** The orphan settings every engine's remove_orphan_files runs with. */
    public OrphanRemovalSettings orphans() {
        return orphans;
    }

    private Duration snapshotRetention(Table table, Duration planned) {
        String property = table.properties().get(TableProperties.MAX_SNAPSHOT_AGE_MS);
        Duration live = property == null ? null : Duration.ofMillis(Long.parseLong(property));
        if (planned == null) {
            return live != null ? live : snapshotRetention;
        }
        return live != null && live.compareTo(planned) > 0 ? live : planned;
    }

    private int retainLast(Table table, Integer planned) {
        String property = table.properties().get(TableProperties.MIN_SNAPSHOTS_TO_KEEP);
        Integer live = property == null ? null : Integer.parseInt(property);
        if (planned == null) {
            return live != null ? live : retainLast;
        }
        return live != null ? Math.max(live, planned) : planned;
    }

    private Duration orphanFloor(Duration requested) {
        try {
            return orphans.floor(requested).floor();
        } catch (IllegalArgumentException e) {
            throw new CryoException(ExecutorErrorCode.UNSAFE_PARAMETER, e.getMessage(), e);
        }
    }
}
