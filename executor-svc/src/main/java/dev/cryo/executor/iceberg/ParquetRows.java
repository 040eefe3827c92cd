package dev.cryo.executor.iceberg;

import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.data.parquet.InternalReader;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.util.PartitionUtil;

import java.util.Map;

/** Streams the rows of one Parquet data file, never the whole file at once. */
final class ParquetRows {

    /**
     * The rows of a scan task's file in Iceberg's internal representation (timestamps as microseconds,
     * dates as days, no conversion to {@code java.time} and back), projected to {@code schema} (which may
     * hold metadata columns such as _pos). What a rewrite reads: the rows go to a Parquet writer of the same
     * representation unchanged.
     */
    static CloseableIterable<StructLike> openInternal(FileIO io, FileScanTask task, Schema schema) {
        requireParquet(task.file());
        Map<Integer, ?> constants = PartitionUtil.constantsMap(task);
        return Parquet.read(io.newInputFile(task.file().location(), task.file().fileSizeInBytes()))
                .project(schema)
                .createReaderFunc(fileSchema -> InternalReader.<StructLike>create(schema, fileSchema, constants))
                .build();
    }

    /** The rows of a data file that this engine wrote, in Iceberg's internal representation, projected to {@code schema}. */
    static CloseableIterable<StructLike> openInternal(FileIO io, ContentFile<?> file, Schema schema) {
        requireParquet(file);
        return Parquet.read(io.newInputFile(file.location(), file.fileSizeInBytes()))
                .project(schema)
                .createReaderFunc(fileSchema -> InternalReader.<StructLike>create(schema, fileSchema))
                .build();
    }

    /** The rows of a Parquet file of this table (a position delete file, say), projected to {@code schema}. */
    static CloseableIterable<Record> open(FileIO io, ContentFile<?> file, Schema schema) {
        requireParquet(file);
        return Parquet.read(io.newInputFile(file.location()))
                .project(schema)
                .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
                .build();
    }

    static void requireParquet(ContentFile<?> file) {
        if (file.format() != FileFormat.PARQUET) {
            throw new CryoException(ExecutorErrorCode.UNSUPPORTED_FILE_FORMAT, "Cannot rewrite " + file.location()
                    + ": the native engine rewrites Parquet data files only, this one is " + file.format()
                    + "; run this table's rewrites on Trino or Spark (table policy engine)");
        }
    }

    private ParquetRows() {
    }
}
