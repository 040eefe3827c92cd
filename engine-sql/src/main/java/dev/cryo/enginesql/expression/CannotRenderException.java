package dev.cryo.enginesql.expression;

/**
 * Input that no engine may receive as SQL: a name with a control character, text that is not
 * valid UTF-16, a partition value that does not parse as its source type. A plan carrying it is
 * wrong, whatever the engine; compare {@code Rendering.NotExpressible}, which says that one engine
 * cannot do something that another can.
 */
public class CannotRenderException extends IllegalArgumentException {

    public CannotRenderException(String message) {
        super(message);
    }

    public CannotRenderException(String message, Throwable cause) {
        super(message, cause);
    }
}
