package dev.cryo.executor.iceberg;

import dev.cryo.iceberg.fingerprint.Fingerprint;
import org.apache.iceberg.DataFile;

import java.util.List;
import java.util.Map;

/**
 * The new files of a rewrite, the fingerprint of the rows that went into them, and for every
 * replaced file where each of its rows landed (so that rows deleted concurrently can be deleted
 * from the new files too).
 *
 * @param runs by replaced file location, its runs in position order
 */
record RewriteOutput(List<DataFile> files, Fingerprint input, Map<String, List<Run>> runs) {

    /** A run of consecutive positions of one input file that landed consecutively in one new file. */
    record Run(long firstPosition, long length, int newFile, long firstNewPosition) {

        /** The run holding {@code position}, or null when the row was not written (deleted at the start). */
        static Run find(List<Run> runs, long position) {
            int low = 0;
            int high = runs.size() - 1;
            while (low <= high) {
                int middle = (low + high) >>> 1;
                Run run = runs.get(middle);
                if (position < run.firstPosition()) {
                    high = middle - 1;
                } else if (position >= run.firstPosition() + run.length()) {
                    low = middle + 1;
                } else {
                    return run;
                }
            }
            return null;
        }
    }
}
