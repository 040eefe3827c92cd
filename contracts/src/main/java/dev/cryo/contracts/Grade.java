package dev.cryo.contracts;

/**
 * Grade bands of a table's health score (0–100): A ≥ 90, B ≥ 75, C ≥ 60, D ≥ 40, F below.
 */
public enum Grade {
    A(90), B(75), C(60), D(40), F(0);

    /** Highest possible score. */
    public static final int MAX_SCORE = 100;

    private final int minimumScore;

    Grade(int minimumScore) {
        this.minimumScore = minimumScore;
    }

    /** Lowest score that still earns this grade. */
    public int minimumScore() {
        return minimumScore;
    }

    public static Grade of(int score) {
        if (score < 0 || score > MAX_SCORE) {
            throw new IllegalArgumentException("Cannot grade score " + score + ": expected 0.." + MAX_SCORE);
        }
        for (Grade grade : values()) {
            if (score >= grade.minimumScore) {
                return grade;
            }
        }
        throw new AssertionError("unreachable: F starts at 0");
    }

    /** True when this grade is better than the other one (A is better than B). */
    public boolean isBetterThan(Grade other) {
        return ordinal() < other.ordinal();
    }
}
