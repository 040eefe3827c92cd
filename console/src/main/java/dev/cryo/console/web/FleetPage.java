package dev.cryo.console.web;

import dev.cryo.console.domain.FleetQuery;
import dev.cryo.console.domain.FleetRow;
import dev.cryo.contracts.Grade;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The fleet page's content.
 *
 * @param rows the tables that pass the filters, in order
 * @param total every table, filtered or not
 * @param grades tables per grade over the whole fleet
 * @param problems services that could not fill their part ("governor unreachable …")
 */
public record FleetPage(FleetQuery query, List<FleetRow> rows, int total, List<GradeCount> grades,
                        List<String> catalogs, List<String> namespaces, List<String> problems, Instant generatedAt) {

    /** Tables of one grade. */
    public record GradeCount(Grade grade, long tables, boolean selected) {
    }

    public FleetPage {
        rows = List.copyOf(rows);
        grades = List.copyOf(grades);
        catalogs = List.copyOf(catalogs);
        namespaces = List.copyOf(namespaces);
        problems = List.copyOf(problems);
    }

    /** The query string of this page's filters and order ({@code grade=D,F&sort=score}), for live updates. */
    public String queryString() {
        return queryString(query.sort().id(), query.descending() ? "desc" : "asc");
    }

    /** The link of a column heading: sorts by it, flipping the order when it is already the sort column. */
    public String sortLink(String sortId) {
        String order = "";
        if (sortId.equals(query.sort().id())) {
            order = query.descending() ? "asc" : "desc";
        }
        return "?" + queryString(sortId, order);
    }

    /** The arrow of a column heading: ▲ or ▼ on the sort column, nothing elsewhere. */
    public String sortMark(String sortId) {
        if (!sortId.equals(query.sort().id())) {
            return "";
        }
        return query.descending() ? "▼" : "▲";
    }

    /** The link of a grade in the summary bar: only that grade, or every grade again when it is the only one shown. */
    public String gradeLink(Grade grade) {
        boolean only = query.grades().size() == 1 && query.grades().contains(grade);
        List<String> parameters = new ArrayList<>();
        if (!only) {
            parameters.add("grade=" + grade.name());
        }
        addFilters(parameters);
        return "?" + String.join("&", parameters);
    }

    private String queryString(String sort, String order) {
        List<String> parameters = new ArrayList<>();
        if (!query.grades().isEmpty()) {
            parameters.add("grade=" + encode(query.gradesText()));
        }
        addFilters(parameters);
        parameters.add("sort=" + encode(sort));
        if (!order.isEmpty()) {
            parameters.add("order=" + order);
        }
        return String.join("&", parameters);
    }

    private void addFilters(List<String> parameters) {
        if (query.catalog() != null) {
            parameters.add("catalog=" + encode(query.catalog()));
        }
        if (query.namespace() != null) {
            parameters.add("namespace=" + encode(query.namespace()));
        }
        if (query.search() != null) {
            parameters.add("search=" + encode(query.search()));
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
