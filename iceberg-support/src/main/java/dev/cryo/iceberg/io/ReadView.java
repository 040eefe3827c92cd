package dev.cryo.iceberg.io;

import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.hadoop.HadoopInputFile;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.SeekableInputStream;

import java.io.IOException;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Reads a table's files without the cost Iceberg's Parquet reader adds per Hadoop file.
 *
 * <p>For every {@code HadoopInputFile} it opens, {@code Parquet.ReadBuilder.build()} copies the whole
 * Hadoop {@code Configuration} (several hundred default properties) to unset a few read properties in
 * the copy. On a table of many small files that copy is most of the CPU a read costs (the profile is in
 * {@code bench/results/ANALYSES.md}, scenario 2 after the read view).
 * Here a Hadoop file is handed to Parquet as a plain {@link InputFile}, which takes Parquet's
 * plain-configuration path, as the files of S3FileIO and the other object-store FileIOs always do; the
 * bytes are read through the same Hadoop stream. The stream is wrapped as well: Iceberg unwraps a Hadoop
 * stream it recognises and hands it to Parquet's Hadoop vectored reads, which Hadoop's checksum file
 * system does not survive on local disk (a NullPointerException in {@code BufferedFSInputStream}).
 *
 * <p>Files of other FileIOs are passed through as they are. The view is read-only: it writes and
 * deletes nothing, and refuses to.
 */
public final class ReadView {

    private ReadView() {
    }

    /**
     * The table, its files (data, delete and manifest files) opened through {@link #input}.
     * A table that does not expose its operations (a metadata table, a serialized copy) is returned as
     * it is.
     */
    public static Table of(Table table) {
        requireNonNull(table, "table is null");
        if (!(table instanceof HasTableOperations withOperations) || !(table instanceof BaseTable base)) {
            return table;
        }
        return new BaseTable(new Operations(withOperations.operations()), table.name(), base.reporter());
    }

    /** The file, a Hadoop one handed over as a plain input file; any other as it is. */
    public static InputFile input(InputFile file) {
        requireNonNull(file, "file is null");
        return file instanceof HadoopInputFile ? new PlainInputFile(file) : file;
    }

    private record PlainInputFile(InputFile file) implements InputFile {

        @Override
        public long getLength() {
            return file.getLength();
        }

        @Override
        public SeekableInputStream newStream() {
            return new PlainStream(file.newStream());
        }

        @Override
        public String location() {
            return file.location();
        }

        @Override
        public boolean exists() {
            return file.exists();
        }
    }

    private static final class PlainStream extends SeekableInputStream {

        private final SeekableInputStream stream;

        PlainStream(SeekableInputStream stream) {
            this.stream = requireNonNull(stream, "stream is null");
        }

        @Override
        public long getPos() throws IOException {
            return stream.getPos();
        }

        @Override
        public void seek(long newPos) throws IOException {
            stream.seek(newPos);
        }

        @Override
        public int read() throws IOException {
            return stream.read();
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            return stream.read(buffer, offset, length);
        }

        @Override
        public long skip(long n) throws IOException {
            return stream.skip(n);
        }

        @Override
        public int available() throws IOException {
            return stream.available();
        }

        @Override
        public void close() throws IOException {
            stream.close();
        }
    }

    /** A FileIO that reads through {@link #input}, and refuses writes and deletes. */
    private record ReadOnlyIO(FileIO io) implements FileIO {

        @Override
        public InputFile newInputFile(String path) {
            return input(io.newInputFile(path));
        }

        @Override
        public InputFile newInputFile(String path, long length) {
            return input(io.newInputFile(path, length));
        }

        @Override
        public OutputFile newOutputFile(String path) {
            throw new UnsupportedOperationException("Cannot write " + path + " through a read view of a table");
        }

        @Override
        public void deleteFile(String path) {
            throw new UnsupportedOperationException("Cannot delete " + path + " through a read view of a table");
        }

        @Override
        public Map<String, String> properties() {
            return io.properties();
        }

        @Override
        public void close() {
            // The table's own FileIO stays open: the view does not own it.
        }
    }

    private static final class Operations implements TableOperations {

        private final TableOperations operations;
        private final FileIO io;

        Operations(TableOperations operations) {
            this.operations = operations;
            this.io = new ReadOnlyIO(operations.io());
        }

        @Override
        public TableMetadata current() {
            return operations.current();
        }

        @Override
        public TableMetadata refresh() {
            return operations.refresh();
        }

        @Override
        public void commit(TableMetadata base, TableMetadata metadata) {
            throw new UnsupportedOperationException("Cannot commit through a read view of a table");
        }

        @Override
        public FileIO io() {
            return io;
        }

        @Override
        public EncryptionManager encryption() {
            return operations.encryption();
        }

        @Override
        public String metadataFileLocation(String fileName) {
            return operations.metadataFileLocation(fileName);
        }

        @Override
        public LocationProvider locationProvider() {
            return operations.locationProvider();
        }
    }
}
