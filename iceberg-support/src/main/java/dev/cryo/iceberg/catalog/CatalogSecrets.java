package dev.cryo.iceberg.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which catalog properties are secrets, and error texts with their values masked: what a
 * catalog's server answers may echo a credential, and no log, event or API answer may show one.
 */
public final class CatalogSecrets {

    /**
     * Whether a catalog property holds a secret ({@code credential}, {@code token}, keys and passwords,
     * session and SAS tokens, custom REST headers): its value must reach no log, event or API answer.
     */
    public static boolean isSecret(String key) {
        String lower = key.toLowerCase(Locale.ROOT);
        return lower.equals("credential") || lower.equals("token") || lower.startsWith("header.")
                || lower.contains("secret") || lower.contains("password") || lower.contains("session-token")
                || lower.contains("sas-token") || lower.contains("oauth2.token") || lower.contains("connection-string")
                || lower.contains("access-token") || lower.contains("api-key");
    }

    /**
     * The text with the value of each secret property of a catalog (and the secret half of a
     * {@code client-id:secret} credential) replaced by {@code ****}: for error messages that a log,
     * an event or an API answer shows.
     */
    public static String withoutSecrets(String text, Map<String, String> properties) {
        if (text == null) {
            return null;
        }
        String redacted = text;
        for (String secret : secretValues(properties)) {
            redacted = redacted.replace(secret, "****");
        }
        return redacted;
    }

    private static List<String> secretValues(Map<String, String> properties) {
        List<String> secrets = new ArrayList<>();
        properties.forEach((key, value) -> {
            if (isSecret(key) && value != null && !value.isBlank()) {
                secrets.add(value);
                int colon = value.indexOf(':');
                if ("credential".equalsIgnoreCase(key) && colon >= 0 && colon < value.length() - 1) {
                    secrets.add(value.substring(colon + 1));
                }
            }
        });
        secrets.sort((a, b) -> b.length() - a.length());
        return secrets;
    }

    /** Whether a message down the failure's chain holds the value of a secret property. */
    static boolean holdsSecret(Throwable failure, Map<String, String> properties) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && !message.equals(withoutSecrets(message, properties))) {
                return true;
            }
        }
        return false;
    }

    private CatalogSecrets() {
    }
}
