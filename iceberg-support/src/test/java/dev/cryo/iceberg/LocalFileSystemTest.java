package dev.cryo.iceberg;

import dev.cryo.iceberg.catalog.CatalogRegistry;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The local file system of {@link CatalogRegistry#hadoopConfiguration}: shared when it can be, never checksumming. */
class LocalFileSystemTest {

    @TempDir
    Path folder;

    @Test
    void everyConfigurationSharesOneRawFileSystemInsteadOfOnePerFile() throws Exception {
        Configuration first = CatalogRegistry.hadoopConfiguration(Map.of());
        Configuration second = CatalogRegistry.hadoopConfiguration(Map.of());
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(folder.toUri().toString(), "data.parquet");

        FileSystem fileSystem = file.getFileSystem(first);

        assertThat(fileSystem).isInstanceOf(RawLocalFileSystem.class);
        assertThat(file.getFileSystem(first)).isSameAs(fileSystem);
        assertThat(file.getFileSystem(second)).isSameAs(fileSystem);
        writeThroughFileIo(first, "shared.parquet");
        assertThat(filesIn(folder)).containsExactly("shared.parquet");
    }

    @Test
    void aChecksummingFileSystemCachedByAnotherComponentIsNotUsed() throws Exception {
        // Hadoop caches per user: a user of its own keeps this test's cache apart from the other tests'.
        UserGroupInformation.createRemoteUser("another-component").doAs((PrivilegedExceptionAction<Void>) () -> {
            FileSystem checksumming = FileSystem.get(URI.create("file:///"), new Configuration());
            assertThat(checksumming).isInstanceOf(LocalFileSystem.class);

            Configuration configuration = CatalogRegistry.hadoopConfiguration(Map.of());
            FileSystem fileSystem = new org.apache.hadoop.fs.Path(folder.toUri()).getFileSystem(configuration);

            assertThat(fileSystem).isInstanceOf(RawLocalFileSystem.class).isNotSameAs(checksumming);
            writeThroughFileIo(configuration, "own.parquet");
            assertThat(filesIn(folder)).containsExactly("own.parquet");
            return null;
        });
    }

    @Test
    void anExplicitCacheSettingIsKept() {
        Configuration configuration = CatalogRegistry.hadoopConfiguration(Map.of("hadoop.fs.file.impl.disable.cache", "true"));

        assertThat(configuration.getBoolean("fs.file.impl.disable.cache", false)).isTrue();
    }

    @Test
    void holdsOnlyItsOwnSettingsSoThatAPerFileCopyIsCheap() {
        Configuration configuration = CatalogRegistry.hadoopConfiguration(Map.of("hadoop.io.file.buffer.size", "65536"));

        assertThat(configuration.size()).isLessThanOrEqualTo(3);
        assertThat(new Configuration(configuration).getInt("io.file.buffer.size", 0)).isEqualTo(65536);
        assertThat(configuration.get("fs.file.impl")).isEqualTo(RawLocalFileSystem.class.getName());
    }

    private void writeThroughFileIo(Configuration configuration, String name) throws Exception {
        try (HadoopFileIO io = new HadoopFileIO(configuration)) {
            OutputFile output = io.newOutputFile(folder.resolve(name).toUri().toString());
            try (PositionOutputStream stream = output.create()) {
                stream.write(new byte[] {1, 2, 3});
            }
        }
    }

    private static List<String> filesIn(Path folder) throws Exception {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }
}
