package dev.cryo.iceberg.orphan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Which schemes and which authorities name the same storage. {@code s3}, {@code s3a} and
 * {@code s3n} are one by default, as in Iceberg's own orphan action; authorities are equal only
 * when spelled the same unless declared equivalent ({@code namenode:8020} and {@code namenode}).
 * A listed file whose path a referenced file shares under a scheme or authority that is not
 * equivalent is neither live nor an orphan: it stops orphan removal (see {@link OrphanSearch}).
 *
 * @param schemes groups of equivalent schemes, each group's first name canonical
 * @param authorities groups of equivalent authorities, each group's first name canonical
 */
public record LocationEquivalence(List<List<String>> schemes, List<List<String>> authorities) {

    /** s3, s3a and s3n are one; nothing else is declared. */
    public static final LocationEquivalence DEFAULT = new LocationEquivalence(List.of(List.of("s3", "s3a", "s3n")), List.of());

    /** Nothing is equivalent that is not spelled the same. */
    public static final LocationEquivalence NONE = new LocationEquivalence(List.of(), List.of());

    public LocationEquivalence {
        schemes = groups(schemes, "schemes", true);
        authorities = groups(authorities, "authorities", false);
    }

    /**
     * Groups written as configuration values: each group its names separated by spaces, e.g.
     * {@code ["s3 s3a s3n"]}; the single value {@code none} declares no group.
     */
    public static List<List<String>> parseGroups(List<String> values) {
        requireNonNull(values, "values is null");
        if (values.size() == 1 && values.get(0).trim().equalsIgnoreCase("none")) {
            return List.of();
        }
        List<List<String>> groups = new ArrayList<>();
        for (String value : values) {
            List<String> names = List.of(value.trim().split("\\s+"));
            if (names.size() < 2 || names.get(0).isEmpty()) {
                throw new IllegalArgumentException("Cannot read equivalence group '" + value
                        + "': name at least two schemes or authorities separated by spaces, e.g. 's3 s3a s3n'");
            }
            groups.add(names);
        }
        return groups;
    }

    String scheme(String scheme) {
        return scheme == null ? null : canonical(schemes, scheme.toLowerCase(Locale.ROOT));
    }

    String authority(String authority) {
        return authority == null ? null : canonical(authorities, authority);
    }

    private static String canonical(List<List<String>> groups, String name) {
        for (List<String> group : groups) {
            if (group.contains(name)) {
                return group.get(0);
            }
        }
        return name;
    }

    private static List<List<String>> groups(List<List<String>> groups, String what, boolean lowerCase) {
        requireNonNull(groups, what + " is null");
        Map<String, Integer> seen = new HashMap<>();
        List<List<String>> copy = new ArrayList<>();
        for (List<String> group : groups) {
            List<String> names = group.stream().map(name -> lowerCase ? name.toLowerCase(Locale.ROOT) : name).toList();
            for (String name : names) {
                Integer other = seen.putIfAbsent(name, copy.size());
                if (other != null && other != copy.size()) {
                    throw new IllegalArgumentException("Cannot declare equivalent " + what + ": '" + name
                            + "' is in two groups; merge them into one");
                }
            }
            copy.add(names);
        }
        return List.copyOf(copy);
    }
}
