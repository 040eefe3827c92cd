package dev.cryo.executor.iceberg;

import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.iceberg.io.ReadView;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.util.PartitionUtil;

import java.util.HashMap;
import java.util.Map;

/** Streams the rows of one Parquet data file, never the whole file at once. */
final class ParquetRows {

    /**
     * What a file that is not committed yet reads as its first row id and sequence number: no
     * real row id or sequence number is negative, so a value derived from these stands for a
     * null stored in the file.
     */
    private static final long UNASSIGNED = Long.MIN_VALUE;

    /**
     * The rows of a scan task's file, projected to {@code schema}, which may hold metadata columns
     * such as {@code _pos} and the row lineage columns. A null {@code _row_id} stored in the file
     * reads as the file's first row id plus the row's position, a null
     * {@code _last_updated_sequence_number} as the file's data sequence number (the spec's
     * inheritance); Iceberg 1.10.1's constants carry the file sequence number instead, which
     * differs for a file that a rewrite committed with an older data sequence number.
     */
    static CloseableIterable<Record> open(FileIO io, FileScanTask task, Schema schema) {
        requireParquet(task.file());
        Map<Integer, Object> constants = new HashMap<>(PartitionUtil.constantsMap(task,
                IdentityPartitionConverters::convertConstant));
        if (task.file().dataSequenceNumber() != null) {
            constants.put(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId(), task.file().dataSequenceNumber());
        }
        return Parquet.read(input(io, task.file()))
                .project(schema)
                .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema, constants))
                .build();
    }

    /**
     * The rows of a data file that this engine wrote, projected to {@code schema}. The row
     * lineage columns, if projected, read as the values stored in the file, null where it stores
     * null: Iceberg's reader takes a stored lineage value only from a file that has a first row id,
     * which a file gets when it is committed, so it is handed an impossible one here and the values
     * it derives from it are read as the nulls they stand for.
     */
    static CloseableIterable<Record> open(FileIO io, ContentFile<?> file, Schema schema) {
        requireParquet(file);
        int rowId = indexOf(schema, MetadataColumns.ROW_ID.fieldId());
        int lastUpdated = indexOf(schema, MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId());
        if (rowId < 0 && lastUpdated < 0) {
            return Parquet.read(input(io, file))
                    .project(schema)
                    .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
                    .build();
        }
        Map<Integer, Object> constants = Map.of(MetadataColumns.ROW_ID.fieldId(), UNASSIGNED,
                MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId(), UNASSIGNED);
        CloseableIterable<Record> rows = Parquet.read(input(io, file))
                .project(schema)
                .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema, constants))
                .build();
        return CloseableIterable.transform(rows, row -> {
            nullIfUnassigned(row, rowId);
            nullIfUnassigned(row, lastUpdated);
            return row;
        });
    }

    /**
     * The file to read, through a {@link ReadView}: Iceberg's Parquet reader copies Hadoop's whole
     * configuration for every Hadoop file it opens otherwise. Its length is the storage's, not the
     * metadata's: a file cut short on storage then fails as too short to be Parquet, which names it.
     */
    private static InputFile input(FileIO io, ContentFile<?> file) {
        return ReadView.input(io.newInputFile(file.location()));
    }

    private static void nullIfUnassigned(Record row, int index) {
        if (index >= 0 && row.get(index) instanceof Long value && value < 0) {
            row.set(index, null);
        }
    }

    private static int indexOf(Schema schema, int fieldId) {
        for (int i = 0; i < schema.columns().size(); i++) {
            if (schema.columns().get(i).fieldId() == fieldId) {
                return i;
            }
        }
        return -1;
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
