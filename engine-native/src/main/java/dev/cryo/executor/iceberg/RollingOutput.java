package dev.cryo.executor.iceberg;

import dev.cryo.executor.iceberg.RewriteOutput.Run;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The Parquet output of one partition's rewrite: one writer open at a time, rolled to a new file
 * when the written bytes reach the target size. It records, per input file, where each run of
 * consecutive rows landed ({@link Run}), so that rows deleted concurrently can be carried onto
 * the new files at commit ({@link RewriteCommit}).
 */
final class RollingOutput {

    /** How often (in rows) the writer's length is checked against the target size. */
    static final int SIZE_CHECK_ROWS = 1000;

    private final PartitionSpec spec;
    private final StructLike partition;
    private final List<DataFile> files;
    private final long targetFileSizeBytes;
    private final GenericAppenderFactory appenders;
    private final OutputFileFactory outputFiles;
    private DataWriter<Record> writer;
    private int fileIndex;
    private long fileRows;

    /** Finished files are added to {@code files}, in the order written. */
    RollingOutput(Table table, Schema schema, PartitionSpec spec, StructLike partition, long targetFileSizeBytes,
                  List<DataFile> files) {
        this.spec = spec;
        this.partition = spec.isUnpartitioned() ? null : partition;
        this.files = files;
        this.targetFileSizeBytes = targetFileSizeBytes;
        this.appenders = new GenericAppenderFactory(schema, spec);
        this.appenders.setAll(table.properties());
        this.outputFiles = TableFiles.outputFiles(table, spec.specId(), "cryo-rewrite");
    }

    /** Writes {@code row}, read at {@code position} of the input file whose runs are {@code fileRuns}. */
    void write(Record row, List<Run> fileRuns, long position) {
        if (writer == null) {
            // One writer is open at a time, so the next finished file takes this index.
            fileIndex = files.size();
            writer = appenders.newDataWriter(partition == null ? outputFiles.newOutputFile()
                    : outputFiles.newOutputFile(spec, partition), FileFormat.PARQUET, partition);
            fileRows = 0;
        }
        Run last = fileRuns.isEmpty() ? null : fileRuns.get(fileRuns.size() - 1);
        if (last != null && last.newFile() == fileIndex && last.firstPosition() + last.length() == position
                && last.firstNewPosition() + last.length() == fileRows) {
            fileRuns.set(fileRuns.size() - 1, new Run(last.firstPosition(), last.length() + 1, fileIndex,
                    last.firstNewPosition()));
        } else {
            fileRuns.add(new Run(position, 1, fileIndex, fileRows));
        }
        writer.write(row);
        fileRows++;
        if (fileRows % SIZE_CHECK_ROWS == 0 && writer.length() >= targetFileSizeBytes) {
            roll();
        }
    }

    private void roll() {
        try {
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        files.add(writer.toDataFile());
        writer = null;
    }

    /** Finishes the open file, if any. */
    void close() {
        if (writer != null) {
            roll();
        }
    }
}
