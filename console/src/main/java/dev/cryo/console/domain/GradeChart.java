package dev.cryo.console.domain;

import dev.cryo.contracts.Grade;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * The grade history as an inline SVG line chart: score over time on the grade bands. The geometry is
 * computed here, the template only draws it, so no chart library reaches the browser.
 *
 * @param width the SVG width in user units
 * @param height the SVG height
 * @param points the gradings, oldest first
 * @param bands one background band per grade
 * @param firstLabel the time of the oldest grading
 * @param lastLabel the time of the newest grading
 */
public record GradeChart(int width, int height, List<Point> points, List<Band> bands, String firstLabel,
                         String lastLabel) {

    static final int LEFT = 30;
    static final int RIGHT = 10;
    static final int TOP = 8;
    static final int BOTTOM = 22;

    /** One grading. */
    public record Entry(Instant gradedAt, int score, Grade grade) {
        public Entry {
            requireNonNull(gradedAt, "gradedAt is null");
            requireNonNull(grade, "grade is null");
        }
    }

    /** A grading on the chart, with its hover text. */
    public record Point(double x, double y, int score, Grade grade, String label) {
        public String xText() {
            return number(x);
        }

        public String yText() {
            return number(y);
        }
    }

    /** A grade's band of scores as a rectangle behind the line. */
    public record Band(Grade grade, double top, double height, double labelY) {
        public String topText() {
            return number(top);
        }

        public String heightText() {
            return number(height);
        }

        public String labelYText() {
            return number(labelY);
        }
    }

    public GradeChart {
        points = List.copyOf(points);
        bands = List.copyOf(bands);
    }

    /**
     * Places the gradings: x in proportion to time (evenly when they share one instant), y by score.
     *
     * @param entries gradings in any order
     */
    public static GradeChart of(List<Entry> entries, int width, int height) {
        if (width <= LEFT + RIGHT || height <= TOP + BOTTOM) {
            throw new IllegalArgumentException("Cannot draw a grade chart of " + width + "×" + height
                    + ": it needs room for its axes");
        }
        List<Entry> ordered = entries.stream().sorted(Comparator.comparing(Entry::gradedAt)).toList();
        double plotWidth = width - LEFT - RIGHT;
        double plotHeight = height - TOP - BOTTOM;
        List<Point> points = new ArrayList<>();
        if (!ordered.isEmpty()) {
            long first = ordered.get(0).gradedAt().toEpochMilli();
            long span = ordered.get(ordered.size() - 1).gradedAt().toEpochMilli() - first;
            for (int i = 0; i < ordered.size(); i++) {
                Entry entry = ordered.get(i);
                double share;
                if (ordered.size() == 1) {
                    share = 1;
                } else if (span == 0) {
                    share = (double) i / (ordered.size() - 1);
                } else {
                    share = (double) (entry.gradedAt().toEpochMilli() - first) / span;
                }
                points.add(new Point(LEFT + share * plotWidth, y(entry.score(), plotHeight), entry.score(),
                        entry.grade(), Formats.time(entry.gradedAt()) + ": " + entry.score() + " (" + entry.grade() + ")"));
            }
        }
        List<Band> bands = new ArrayList<>();
        int upper = Grade.MAX_SCORE;
        for (Grade grade : Grade.values()) {
            double top = y(upper, plotHeight);
            double bottom = y(grade.minimumScore(), plotHeight);
            bands.add(new Band(grade, top, bottom - top, (top + bottom) / 2 + 4));
            upper = grade.minimumScore();
        }
        String firstLabel = ordered.isEmpty() ? "" : Formats.time(ordered.get(0).gradedAt());
        String lastLabel = ordered.isEmpty() ? "" : Formats.time(ordered.get(ordered.size() - 1).gradedAt());
        return new GradeChart(width, height, points, bands, firstLabel, lastLabel);
    }

    /** The points of the line, {@code x,y x,y …}. */
    public String polyline() {
        StringBuilder line = new StringBuilder();
        for (Point point : points) {
            if (!line.isEmpty()) {
                line.append(' ');
            }
            line.append(point.xText()).append(',').append(point.yText());
        }
        return line.toString();
    }

    public boolean empty() {
        return points.isEmpty();
    }

    public int left() {
        return LEFT;
    }

    public int right() {
        return width - RIGHT;
    }

    public int plotWidth() {
        return width - LEFT - RIGHT;
    }

    /** The x of the grade letters beside the bands. */
    public int bandLabelX() {
        return LEFT - 18;
    }

    /** The y of the time axis labels. */
    public int axisLabelY() {
        return height - 6;
    }

    private static double y(int score, double plotHeight) {
        return TOP + (Grade.MAX_SCORE - score) / (double) Grade.MAX_SCORE * plotHeight;
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
