package dev.cryo.deploy;

import java.util.Locale;

/**
 * How an environment variable names a configuration key in Quarkus (SmallRye Config's environment
 * source), the rule the validation applies:
 *
 * <ul>
 *   <li>{@code CRYO_GOVERNOR_SLOTS_NATIVE} is {@code cryo.governor.slots.native}: the environment form of a
 *       key replaces every character that is not a letter or digit with {@code _} and upper-cases the rest.
 *       A variable in this form is valid when it is the environment form of a key the service reads.</li>
 *   <li>A variable may also be named by the property itself ({@code cryo.catalogs.lake.io-impl});
 *       Kubernetes and Compose accept dots and dashes in names, and SmallRye reads such a variable
 *       under exactly that key. It is the only form for a map whose keys hold dots or dashes (Iceberg
 *       catalog properties): {@code CRYO_CATALOGS_LAKE_IO_IMPL} would be read as {@code io.impl}.</li>
 *   <li>A variable that a properties file reads through an expression, {@code ${CRYO_DB_URL:…}}, is
 *       valid as it is written there.</li>
 * </ul>
 */
public final class EnvironmentNames {

    private EnvironmentNames() {
    }

    /** Quarkus' environment form of a key or key segment. */
    public static String environmentForm(String key) {
        StringBuilder form = new StringBuilder(key.length());
        for (char c : key.toCharArray()) {
            form.append(Character.isLetterOrDigit(c) && c < 128 ? Character.toUpperCase(c) : '_');
        }
        return form.toString().toUpperCase(Locale.ROOT);
    }

    /** Whether a variable is written in the upper-case environment form rather than as a property name. */
    public static boolean isEnvironmentForm(String variable) {
        return variable.matches("[A-Z_][A-Z0-9_]*");
    }
}
