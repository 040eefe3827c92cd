package dev.cryo.iceberg.orphan;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * A file's location split the way storage sees it: scheme ({@code s3}, {@code file}, {@code hdfs};
 * null when the location has none), authority (bucket, {@code host:port}; null when it has none)
 * and path in its one canonical form: percent-escapes decoded (as UTF-8; an escape that decodes to
 * no text stays as written), {@code .} and {@code ..} segments resolved, repeated and trailing
 * slashes folded. So {@code file:/a}, {@code file:///a}, {@code /a}, {@code /x/../a} and
 * {@code /%61} have one path.
 *
 * <p>Object stores treat keys as opaque strings, so two spellings of one canonical path may be two
 * objects. Cryo therefore treats a listed file that matches a reference after canonicalization as
 * the referenced file (it is kept), and stops when two different {@link #spelling spellings} of one
 * path both occur among a table's references or in one listing: it cannot tell whether they are
 * one file or two (see {@link ReachableFiles} and {@link OrphanSearch}).
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

    /** The parts of a location as Iceberg metadata or a storage listing spells it, the path canonical. */
    public static FileLocation parse(String location) {
        Split split = split(location);
        return new FileLocation(split.scheme, split.authority, canonicalPath(split.path));
    }

    /**
     * The path of a location exactly as written (after scheme and authority): two locations with one
     * canonical path but different spellings may name two objects.
     */
    public static String spelling(String location) {
        return split(location).path;
    }

    /** Whether the location's path is written in its canonical form. */
    public static boolean isCanonicallySpelled(String location) {
        String spelled = spelling(location);
        return spelled.equals(canonicalPath(spelled));
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

    /** Whether this location lies under {@code directory} or is it, on the same storage. */
    boolean isWithin(FileLocation directory) {
        return (path.equals(directory.path) && sameStorage(directory)) || relativeTo(directory) != null;
    }

    /** Whether the path names no folder at all: a bucket's, container's or file system's root. */
    boolean isRoot() {
        return path.equals("/") || path.isEmpty();
    }

    @Override
    public String toString() {
        return (scheme == null ? "" : scheme + ":") + (authority == null ? (scheme == null ? "" : "//") : "//" + authority) + path;
    }

    private record Split(String scheme, String authority, String path) {
    }

    private static Split split(String location) {
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
        return new Split(scheme, authority, rest);
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

    /** Decoded, dot segments resolved ({@code ..} at the root stays at the root), slashes folded. */
    static String canonicalPath(String spelled) {
        String decoded = spelled.indexOf('%') < 0 ? spelled : percentDecoded(spelled);
        boolean absolute = decoded.startsWith("/");
        Deque<String> segments = new ArrayDeque<>();
        int start = 0;
        while (start <= decoded.length()) {
            int slash = decoded.indexOf('/', start);
            int end = slash < 0 ? decoded.length() : slash;
            String segment = decoded.substring(start, end);
            if (segment.equals("..")) {
                if (!segments.isEmpty() && !segments.peekLast().equals("..")) {
                    segments.removeLast();
                } else if (!absolute) {
                    segments.addLast(segment);
                }
            } else if (!segment.isEmpty() && !segment.equals(".")) {
                segments.addLast(segment);
            }
            start = end + 1;
        }
        String joined = String.join("/", segments);
        return absolute ? "/" + joined : joined;
    }

    /** Percent-escapes decoded as UTF-8; a run of escapes that is no UTF-8 text stays as written. */
    private static String percentDecoded(String spelled) {
        StringBuilder decoded = new StringBuilder(spelled.length());
        int i = 0;
        while (i < spelled.length()) {
            if (!isEscape(spelled, i)) {
                decoded.append(spelled.charAt(i++));
                continue;
            }
            int runStart = i;
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            while (isEscape(spelled, i)) {
                bytes.write(Integer.parseInt(spelled.substring(i + 1, i + 3), 16));
                i += 3;
            }
            try {
                decoded.append(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray())));
            } catch (CharacterCodingException e) {
                decoded.append(spelled, runStart, i);
            }
        }
        return decoded.toString();
    }

    private static boolean isEscape(String text, int at) {
        return at + 2 < text.length() && text.charAt(at) == '%' && isHex(text.charAt(at + 1)) && isHex(text.charAt(at + 2));
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
