package dev.cryo.demo;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

class NioLocalFileSystemTest {

    @TempDir
    Path folder;

    @Test
    void filesAndFoldersGetTheModesHadoopWouldGiveThem() throws Exception {
        Configuration configuration = new Configuration();
        configuration.set("fs.file.impl", NioLocalFileSystem.class.getName());
        configuration.setBoolean("fs.file.impl.disable.cache", true);
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(folder.toUri().toString(), "a/b/data.parquet");
        try (FileSystem fileSystem = file.getFileSystem(configuration)) {
            assertThat(fileSystem).isInstanceOf(NioLocalFileSystem.class);
            try (FSDataOutputStream out = fileSystem.create(file, false)) {
                out.write(new byte[] {1, 2, 3});
            }
            fileSystem.setPermission(new org.apache.hadoop.fs.Path(folder.toUri().toString(), "a"), new FsPermission((short) 0750));
        }
        Path written = folder.resolve("a/b/data.parquet");
        assertThat(Files.readAllBytes(written)).containsExactly(1, 2, 3);
        // Hadoop's defaults: 0666 for files and 0777 for folders, minus the umask 022
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(written))).isEqualTo("rw-r--r--");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder.resolve("a/b")))).isEqualTo("rwxr-xr-x");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder.resolve("a")))).isEqualTo("rwxr-x---");
    }
}
