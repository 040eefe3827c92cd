package dev.cryo.cli.text;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static java.util.Objects.requireNonNull;

/** Columns aligned with spaces, a header in capitals, nothing else: readable and easy to grep. */
public final class TextTable {

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(String... headers) {
        this.headers = List.of(headers);
    }

    public TextTable row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("Cannot add a row of " + cells.length + " cells to a table of "
                    + headers.size() + " columns");
        }
        rows.add(Arrays.stream(cells).map(cell -> cell == null ? "-" : cell.toString()).toList());
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    public void print(PrintWriter out) {
        requireNonNull(out, "out is null");
        int[] widths = new int[headers.size()];
        for (int column = 0; column < widths.length; column++) {
            widths[column] = headers.get(column).length();
            for (List<String> row : rows) {
                widths[column] = Math.max(widths[column], row.get(column).length());
            }
        }
        line(out, headers, widths);
        rows.forEach(row -> line(out, row, widths));
        out.flush();
    }

    private static void line(PrintWriter out, List<String> cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int column = 0; column < cells.size(); column++) {
            String cell = cells.get(column);
            line.append(cell);
            if (column < cells.size() - 1) {
                line.append(" ".repeat(widths[column] - cell.length() + 2));
            }
        }
        out.println(line.toString().stripTrailing());
    }
}
