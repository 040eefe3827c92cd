package dev.cryo.executor.iceberg;

import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.util.PartitionUtil;

import java.util.Map;

/** Streams the rows of one Parquet data file, never the whole file at once. */
final class ParquetRows {

    /** The rows of a scan task's file, projected to {@code schema} (which may hold metadata columns such as _pos). */
    static CloseableIterable<Record> open(FileIO io, FileScanTask task, Schema schema) {
        requireParquet(task.file());
        Map<Integer, ?> constants = PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
        return Parquet.read(io.newInputFile(task.file().location()))
                .project(schema)
                .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema, constants))
                .build();
    }

    /** The rows of a data file that this engine wrote, projected to {@code schema}. */
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
