package dev.cryo.enginesql.expression;

/** Checks shared by both dialects before anything reaches a statement. */
public final class Sql {

    /** Longest name accepted for a catalog, namespace, table or column, in characters. */
    public static final int MAX_NAME_LENGTH = 1024;

    /**
     * A name as it may be quoted: not empty, valid UTF-16, no control characters (no engine
     * stores them in names, and a quoted name spanning lines is where injections hide).
     */
    public static String checkName(String name, String what) {
        if (name == null || name.isEmpty()) {
            throw new CannotRenderException("Cannot render " + what + ": it is empty");
        }
        if (name.length() > MAX_NAME_LENGTH) {
            throw new CannotRenderException("Cannot render " + what + " '" + printable(name) + "': longer than "
                    + MAX_NAME_LENGTH + " characters");
        }
        checkText(name, what);
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i))) {
                throw new CannotRenderException("Cannot render " + what + " '" + printable(name)
                        + "': it contains the control character U+" + hex4(name.charAt(i)));
            }
        }
        return name;
    }

    /** Text that can be encoded at all: no unpaired surrogate. */
    public static String checkText(String text, String what) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new CannotRenderException("Cannot render " + what + " '" + printable(text)
                        + "': it contains the unpaired surrogate U+" + hex4(c) + " (not valid UTF-16)");
            }
        }
        return text;
    }

    /** Four upper-case hex digits of a UTF-16 code unit. */
    public static String hex4(char c) {
        return String.format("%04X", (int) c);
    }

    /** For error messages: shortened, control characters and surrogates shown as '?'. */
    public static String printable(String value) {
        if (value == null) {
            return "null";
        }
        String shortened = value.length() > 80 ? value.substring(0, 80) + "…" : value;
        StringBuilder result = new StringBuilder(shortened.length());
        for (int i = 0; i < shortened.length(); i++) {
            char c = shortened.charAt(i);
            result.append(Character.isISOControl(c) || Character.isSurrogate(c) ? '?' : c);
        }
        return result.toString();
    }

    private Sql() {
    }
}
