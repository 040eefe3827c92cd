package dev.cryo.executor.iceberg;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.domain.OrphanAgeFloor;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * The parameters an operation runs with: the plan's, else the table's own properties, else the
 * executor's defaults — the same on every engine. Trino and Spark get them written out in their
 * statements, so an engine's own default never decides how much history or which files go.
 */
public final class OperationDefaults {

    private final Duration snapshotRetention;
    private final int retainLast;
    private final Duration orphanAgeFloor;

    public OperationDefaults(Duration snapshotRetention, int retainLast, Duration orphanAgeFloor) {
        this.snapshotRetention = requireNonNull(snapshotRetention, "snapshotRetention is null");
        this.retainLast = retainLast;
        this.orphanAgeFloor = requireNonNull(orphanAgeFloor, "orphanAgeFloor is null");
    }

    /**
     * @throws CryoException UNSAFE_PARAMETER when the orphan age floor is below {@link OrphanAgeFloor#MINIMUM}
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
                    planned.snapshotRetention() != null ? planned.snapshotRetention()
                            : Duration.ofMillis(PropertyUtil.propertyAsLong(table.properties(),
                            TableProperties.MAX_SNAPSHOT_AGE_MS, snapshotRetention.toMillis())),
                    planned.retainLast() != null ? planned.retainLast()
                            : PropertyUtil.propertyAsInt(table.properties(), TableProperties.MIN_SNAPSHOTS_TO_KEEP, retainLast),
                    planned.orphanAgeFloor());
            case REMOVE_ORPHAN_FILES -> new OperationParameters(planned.targetFileSizeBytes(), planned.snapshotRetention(),
                    planned.retainLast(), orphanFloor(planned.orphanAgeFloor()));
            case COMPUTE_STATISTICS, OPTIMIZE_MANIFESTS -> planned;
        };
    }

    private Duration orphanFloor(Duration requested) {
        try {
            return OrphanAgeFloor.resolve(requested, orphanAgeFloor);
        } catch (IllegalArgumentException e) {
            throw new CryoException(ExecutorErrorCode.UNSAFE_PARAMETER, e.getMessage(), e);
        }
    }
}
