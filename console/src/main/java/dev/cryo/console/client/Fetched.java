package dev.cryo.console.client;

/**
 * What one service call gave a page: its value, or the failure that the page shows in place of the
 * part it could not fill.
 */
public record Fetched<T>(T value, ServiceException problem) {

    public Fetched {
        if (value != null && problem != null) {
            throw new IllegalArgumentException("a fetch has a value or a problem, not both");
        }
    }

    public static <T> Fetched<T> of(T value) {
        return new Fetched<>(value, null);
    }

    public static <T> Fetched<T> failed(ServiceException problem) {
        return new Fetched<>(null, problem);
    }

    public boolean ok() {
        return problem == null;
    }

    /** The service answered 404: what was asked for does not exist (yet). */
    public boolean notFound() {
        return problem != null && problem.isNotFound();
    }

    /** The line a page shows instead of the value. */
    public String problemText() {
        return problem == null ? "" : problem.describe();
    }
}
