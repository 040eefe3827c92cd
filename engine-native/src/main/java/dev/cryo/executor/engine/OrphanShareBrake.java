package dev.cryo.executor.engine;

import java.util.Locale;
import java.util.Optional;

/**
 * Stops an orphan removal whose candidates are more than a share of the files or bytes listed
 * under the table location: a table that seems to be mostly orphans is more likely misread (a
 * wrong location, a catalog that lost commits, files another table owns) than mostly garbage.
 * An operator who checked the list releases the brake for one run.
 *
 * @param maxShare the largest share of listed files, and of listed bytes, a run deletes on its own (0 to 1)
 */
public record OrphanShareBrake(double maxShare) {

    public OrphanShareBrake {
        if (!(maxShare > 0 && maxShare <= 1)) {
            throw new IllegalArgumentException("Cannot use orphan max-share " + maxShare
                    + ": it must be more than 0 and at most 1 (cryo.executor.orphans.max-share)");
        }
    }

    /** Why the run must stop, or empty when the candidates are within the share. */
    public Optional<String> stops(long listedFiles, long listedBytes, long orphanFiles, long orphanBytes) {
        boolean files = orphanFiles > maxShare * listedFiles;
        boolean bytes = orphanBytes > maxShare * listedBytes;
        if (!files && !bytes) {
            return Optional.empty();
        }
        return Optional.of(orphanFiles + " of " + listedFiles + " listed files (" + percent(orphanFiles, listedFiles)
                + ") and " + orphanBytes + " of " + listedBytes + " bytes (" + percent(orphanBytes, listedBytes)
                + ") would go, more than cryo.executor.orphans.max-share of " + percent(maxShare));
    }

    private static String percent(long part, long whole) {
        return whole == 0 ? "-" : percent((double) part / whole);
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.0f %%", share * 100);
    }
}
