package dev.cryo.console.domain;

import dev.cryo.contracts.Grade;

import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * The fleet page's filters and order, parsed from its query parameters.
 *
 * @param grades only tables of these grades (empty: every table, graded or not)
 * @param catalog only this catalog (null: any)
 * @param namespace only this namespace (null: any)
 * @param search only tables whose id contains this text, case-insensitively (null: any)
 * @param sort the column to sort by
 * @param descending whether the order is descending
 */
public record FleetQuery(Set<Grade> grades, String catalog, String namespace, String search, Sort sort,
                         boolean descending) {

    /** Longest accepted filter text. */
    public static final int MAX_TEXT_LENGTH = 200;

    /** The columns the fleet can be sorted by, each with its natural direction. */
    public enum Sort {
        SCORE("score", false), TABLE("table", false), LAST_CHANGE("lastChange", true), GRADED("graded", true),
        ENGINE("engine", false);

        private final String id;
        private final boolean descendingByDefault;

        Sort(String id, boolean descendingByDefault) {
            this.id = id;
            this.descendingByDefault = descendingByDefault;
        }

        public String id() {
            return id;
        }

        static Sort fromId(String id) {
            return Arrays.stream(values()).filter(sort -> sort.id.equals(id)).findFirst()
                    .orElseThrow(() -> new InvalidInputException("Cannot sort the fleet by '" + shown(id)
                            + "': sort by one of " + Arrays.stream(values()).map(Sort::id).toList()));
        }
    }

    /** Worst first: the default order of the fleet. */
    public static final FleetQuery DEFAULT = new FleetQuery(Set.of(), null, null, null, Sort.SCORE, false);

    public FleetQuery {
        grades = grades.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(grades));
        requireNonNull(sort, "sort is null");
    }

    /**
     * Reads the query parameters; blank values mean "no filter".
     *
     * @param grades grade letters, each parameter may hold several separated by commas ({@code D,F})
     * @param order {@code asc} or {@code desc}; blank takes the sort column's natural direction
     * @throws InvalidInputException naming the parameter and what it accepts
     */
    public static FleetQuery parse(List<String> grades, String catalog, String namespace, String search, String sort,
                                   String order) {
        Set<Grade> wanted = EnumSet.noneOf(Grade.class);
        for (String value : grades == null ? List.<String>of() : grades) {
            for (String letter : value.split(",")) {
                String trimmed = letter.trim().toUpperCase(Locale.ROOT);
                if (trimmed.isEmpty()) {
                    continue;
                }
                try {
                    wanted.add(Grade.valueOf(trimmed));
                } catch (IllegalArgumentException e) {
                    throw new InvalidInputException("Cannot filter the fleet by grade '" + shown(letter)
                            + "': use the letters A, B, C, D or F");
                }
            }
        }
        Sort column = isBlank(sort) ? Sort.SCORE : Sort.fromId(sort.trim());
        boolean descending;
        if (isBlank(order)) {
            descending = column.descendingByDefault;
        } else if (order.trim().equals("asc")) {
            descending = false;
        } else if (order.trim().equals("desc")) {
            descending = true;
        } else {
            throw new InvalidInputException("Cannot order the fleet '" + shown(order) + "': use asc or desc");
        }
        return new FleetQuery(wanted, text("catalog", catalog), text("namespace", namespace), text("search", search),
                column, descending);
    }

    /** The rows that pass the filters, in this query's order; ties by table id. */
    public List<FleetRow> apply(List<FleetRow> rows) {
        String needle = search == null ? null : search.toLowerCase(Locale.ROOT);
        return rows.stream()
                .filter(row -> grades.isEmpty() || row.grade() != null && grades.contains(row.grade()))
                .filter(row -> catalog == null || row.catalog().equals(catalog))
                .filter(row -> namespace == null || row.namespace().equals(namespace))
                .filter(row -> needle == null || row.table().toLowerCase(Locale.ROOT).contains(needle))
                .sorted(comparator())
                .toList();
    }

    /** Whether the fleet is filtered at all (the page then says how many tables it hides). */
    public boolean filtered() {
        return !grades.isEmpty() || catalog != null || namespace != null || search != null;
    }

    /** The grade filter as the form field writes it ({@code D,F}). */
    public String gradesText() {
        return String.join(",", grades.stream().sorted().map(Grade::name).toList());
    }

    public boolean wantsGrade(Grade grade) {
        return grades.contains(grade);
    }

    private Comparator<FleetRow> comparator() {
        Comparator<FleetRow> order = switch (sort) {
            // Rows without a value (ungraded, never changed, unknown engine) stay at the end in both directions.
            case SCORE -> nullsLast(FleetRow::score);
            case TABLE -> Comparator.comparing(FleetRow::table);
            case LAST_CHANGE -> nullsLast(FleetRow::lastChangeAt);
            case GRADED -> nullsLast(FleetRow::gradedAt);
            case ENGINE -> nullsLast(FleetRow::engine);
        };
        return order.thenComparing(FleetRow::table);
    }

    private <T extends Comparable<T>> Comparator<FleetRow> nullsLast(Function<FleetRow, T> key) {
        Comparator<T> values = descending ? Comparator.<T>reverseOrder() : Comparator.<T>naturalOrder();
        return Comparator.comparing(key, Comparator.nullsLast(values));
    }

    private static String text(String parameter, String value) {
        if (isBlank(value)) {
            return null;
        }
        String trimmed = value.trim();
        if (trimmed.length() > MAX_TEXT_LENGTH) {
            throw new InvalidInputException("Cannot filter the fleet by " + parameter + ": the text is longer than "
                    + MAX_TEXT_LENGTH + " characters");
        }
        return trimmed;
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    private static String shown(String value) {
        String printable = value.replaceAll("\\p{Cntrl}", "?");
        return printable.length() > 40 ? printable.substring(0, 40) + "…" : printable;
    }
}
