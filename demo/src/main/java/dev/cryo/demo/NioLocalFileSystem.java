package dev.cryo.demo;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * Hadoop's local file system, minus a process per file. Without Hadoop's native library (it is
 * missing on most machines, this one included), {@link RawLocalFileSystem} sets the permissions
 * of every file and folder it creates by running {@code chmod}: building the fleet's ~600 files
 * cost a minute of process starts on a busy machine. This sets the same permissions through
 * java.nio. Used by the demo tool only ({@code hadoop.fs.file.impl}); the files, their paths
 * and their modes are the same as Hadoop writes them.
 */
public class NioLocalFileSystem extends RawLocalFileSystem {

    @Override
    public void setPermission(Path path, FsPermission permission) throws IOException {
        Set<PosixFilePermission> modes = EnumSet.noneOf(PosixFilePermission.class);
        add(modes, permission.getUserAction(), PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.OWNER_EXECUTE);
        add(modes, permission.getGroupAction(), PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.GROUP_EXECUTE);
        add(modes, permission.getOtherAction(), PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
                PosixFilePermission.OTHERS_EXECUTE);
        Files.setPosixFilePermissions(pathToFile(path).toPath(), modes);
    }

    private static void add(Set<PosixFilePermission> modes, FsAction action, PosixFilePermission read,
                            PosixFilePermission write, PosixFilePermission execute) {
        if (action.implies(FsAction.READ)) {
            modes.add(read);
        }
        if (action.implies(FsAction.WRITE)) {
            modes.add(write);
        }
        if (action.implies(FsAction.EXECUTE)) {
            modes.add(execute);
        }
    }
}
