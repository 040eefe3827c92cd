package dev.cryo.scorer.persistence;

import dev.cryo.contracts.Grade;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A listing of current grades.
 *
 * @param grades only these grades (empty: all)
 * @param catalog only this catalog (optional)
 * @param namespace only this namespace, levels joined by {@code .} (optional)
 * @param sort the order
 * @param direction ascending or descending
 * @param limit rows to return
 * @param offset rows to skip
 */
public record TableQuery(List<Grade> grades, String catalog, String namespace, Sort sort, Direction direction, int limit,
                         int offset) {

    /** What a listing is sorted by; ties are broken by table id. */
    public enum Sort {
        SCORE("score"), TABLE("table"), GRADED_AT("gradedAt");

        private final String parameter;

        Sort(String parameter) {
            this.parameter = parameter;
        }

        public String parameter() {
            return parameter;
        }
    }

    public enum Direction { ASC, DESC }

    public TableQuery {
        grades = List.copyOf(grades);
        requireNonNull(sort, "sort is null");
        requireNonNull(direction, "direction is null");
        if (limit < 1 || offset < 0) {
            throw new IllegalArgumentException("limit must be positive and offset not negative");
        }
    }
}
