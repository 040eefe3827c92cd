package dev.cryo.iceberg.orphan;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * A file's location split the way storage sees it: scheme ({@code s3}, {@code file}, {@code hdfs};
 * null when the location has none), authority (bucket, {@code host:port}; null when it has none)
 * and path. The path keeps its raw spelling (no percent-decoding: metadata and listings spell keys
 * the same way) with repeated and trailing slashes folded, so that {@code file:/a}, {@code file:///a}
 * and {@code /a} have one path.
 *
 * <p>Parsed by hand rather than with {@link java.net.URI}: object keys may hold characters a URI
 * refuses (spaces, {@code %} not followed by hex digits), and a location that cannot be parsed must
 * never make a file look unreferenced.
 */
public record FileLocation(String scheme, String authority, String path) {

    public FileLocation {
        requireNonNull(path, "path is null");
        if (scheme != null && scheme.isEmpty()) {
            scheme = null;
        }
        if (authority != null && authority.isEmpty()) {
            authority = null;
        }
    }

    /** The parts of a location as Iceberg metadata or a storage listing spells it. */
    public static FileLocation parse(String location) {
        requireNonNull(location, "location is null");
        String scheme = null;
        String rest = location;
        int colon = location.indexOf(':');
        if (colon > 1 && isScheme(location.substring(0, colon))) {
            scheme = location.substring(0, colon).toLowerCase(Locale.ROOT);
            rest = location.substring(colon + 1);
        }
        String authority = null;
        if (scheme != null && rest.startsWith("//")) {
            int slash = rest.indexOf('/', 2);
            authority = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
            rest = slash < 0 ? "/" : rest.substring(slash);
        }
        return new FileLocation(scheme, authority, foldSlashes(rest));
    }

    /** The same location with scheme and authority replaced by their canonical names. */
    FileLocation canonical(LocationEquivalence equivalence) {
        return new FileLocation(equivalence.scheme(scheme), equivalence.authority(authority), path);
    }

    /**
     * Whether both name the same storage: equal schemes and equal authorities, where a part
     * missing on either side (a schemeless path, {@code file:/a}) matches any, as Iceberg's own
     * orphan action treats them. Both must be {@link #canonical canonical}.
     */
    boolean sameStorage(FileLocation other) {
        return (scheme == null || other.scheme == null || scheme.equals(other.scheme))
                && (authority == null || other.authority == null || authority.equals(other.authority));
    }

    /** The path of this location relative to {@code directory}, or null when it does not lie under it. */
    String relativeTo(FileLocation directory) {
        String prefix = directory.path.endsWith("/") ? directory.path : directory.path + "/";
        if (!path.startsWith(prefix) || path.length() == prefix.length() || !sameStorage(directory)) {
            return null;
        }
        return path.substring(prefix.length());
    }

    @Override
    public String toString() {
        return (scheme == null ? "" : scheme + ":") + (authority == null ? (scheme == null ? "" : "//") : "//" + authority) + path;
    }

    private static boolean isScheme(String candidate) {
        if (!Character.isLetter(candidate.charAt(0))) {
            return false;
        }
        for (int i = 1; i < candidate.length(); i++) {
            char c = candidate.charAt(i);
            if (!Character.isLetterOrDigit(c) && c != '+' && c != '-' && c != '.') {
                return false;
            }
        }
        return true;
    }

    private static String foldSlashes(String path) {
        StringBuilder folded = new StringBuilder(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c != '/' || folded.isEmpty() || folded.charAt(folded.length() - 1) != '/') {
                folded.append(c);
            }
        }
        if (folded.length() > 1 && folded.charAt(folded.length() - 1) == '/') {
            folded.setLength(folded.length() - 1);
        }
        return folded.toString();
    }
}
