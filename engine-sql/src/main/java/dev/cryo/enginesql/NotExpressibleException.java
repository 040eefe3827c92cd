package dev.cryo.enginesql;

import static java.util.Objects.requireNonNull;

/**
 * Thrown inside a renderer where it finds what its engine cannot do; the renderer turns it into
 * {@link Rendering.NotExpressible} at its boundary, so callers only see the typed result.
 */
public final class NotExpressibleException extends RuntimeException {

    private final Limitation limitation;

    public NotExpressibleException(Limitation limitation, String reason) {
        super(reason, null, false, false);
        this.limitation = requireNonNull(limitation, "limitation is null");
    }

    public Limitation limitation() {
        return limitation;
    }
}
