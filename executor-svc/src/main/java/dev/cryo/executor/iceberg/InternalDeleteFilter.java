package dev.cryo.executor.iceberg;

import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;

/**
 * Applies a scan task's position and equality deletes to rows in Iceberg's internal representation
 * ({@link ParquetRows#openInternal}). Iceberg's {@code GenericDeleteFilter} does the same for generic
 * records, wrapping every row to convert its timestamps back to the internal form before comparing it
 * with the equality deletes; rows read in that form need no wrapper.
 */
final class InternalDeleteFilter extends DeleteFilter<StructLike> {

    private final FileIO io;

    InternalDeleteFilter(FileIO io, FileScanTask task, Schema tableSchema, Schema requestedSchema) {
        super(task.file().location(), task.deletes(), tableSchema, requestedSchema);
        this.io = io;
    }

    @Override
    protected StructLike asStructLike(StructLike row) {
        return row;
    }

    @Override
    protected InputFile getInputFile(String location) {
        return io.newInputFile(location);
    }
}
