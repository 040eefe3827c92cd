package dev.cryo.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * A table as Cryo knows it: {@code catalog.namespace.table}, where the namespace may have
 * several levels ({@code catalog.a.b.table}). It is the Kafka key of every event, so one
 * table's events stay in order on one partition.
 *
 * <p>Names may hold any printable character except {@code .} (the separator), control
 * characters and the backtick; Cryo quotes them wherever they reach SQL.
 */
public record TableId(String catalog, List<String> namespace, String table) {

    /** Longest accepted name part, in characters; Iceberg catalogs use far less. */
    public static final int MAX_PART_LENGTH = 255;

    private static final Pattern FORBIDDEN = Pattern.compile("[.`\\p{Cntrl}]");

    public TableId {
        checkPart(catalog, "catalog");
        requireNonNull(namespace, "namespace is null");
        if (namespace.isEmpty()) {
            throw new IllegalArgumentException("Cannot create table id: namespace is empty");
        }
        namespace.forEach(level -> checkPart(level, "namespace level"));
        namespace = List.copyOf(namespace);
        checkPart(table, "table");
    }

    public static TableId of(String catalog, String namespace, String table) {
        requireNonNull(namespace, "namespace is null");
        return new TableId(catalog, Arrays.asList(namespace.split("\\.", -1)), table);
    }

    /** Parses {@code catalog.namespace[.more].table}. */
    @JsonCreator
    public static TableId parse(String id) {
        requireNonNull(id, "table id is null");
        String[] parts = id.split("\\.", -1);
        if (parts.length < 3) {
            throw new IllegalArgumentException(
                    "Cannot parse table id '" + printable(id) + "': expected catalog.namespace.table");
        }
        List<String> namespace = new ArrayList<>(Arrays.asList(parts).subList(1, parts.length - 1));
        return new TableId(parts[0], namespace, parts[parts.length - 1]);
    }

    /** The namespace levels joined by {@code .}. */
    public String namespaceName() {
        return String.join(".", namespace);
    }

    @JsonValue
    @Override
    public String toString() {
        return catalog + "." + namespaceName() + "." + table;
    }

    private static void checkPart(String value, String what) {
        requireNonNull(value, what + " is null");
        if (value.isBlank()) {
            throw new IllegalArgumentException("Cannot create table id: " + what + " is blank");
        }
        if (value.length() > MAX_PART_LENGTH) {
            throw new IllegalArgumentException("Cannot create table id: " + what + " is longer than "
                    + MAX_PART_LENGTH + " characters");
        }
        if (FORBIDDEN.matcher(value).find()) {
            throw new IllegalArgumentException("Cannot create table id: " + what + " '" + printable(value)
                    + "' contains '.', '`' or a control character");
        }
    }

    private static String printable(String value) {
        String shortened = value.length() > 80 ? value.substring(0, 80) + "…" : value;
        return shortened.replaceAll("\\p{Cntrl}", "?");
    }
}
