package dev.cryo.platform.security;

import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The configured tokens, kept only as SHA-256 digests and compared in constant time. The
 * tokens themselves never reach a log, an event or an API answer.
 */
public final class ApiTokens {

    /** One known caller. */
    public record Caller(String principal, String role) {
    }

    private static final List<String> ROLES = List.of(Roles.OPERATOR, Roles.VIEWER);

    private final Map<String, Caller> callersByDigest;

    private ApiTokens(Map<String, Caller> callersByDigest) {
        this.callersByDigest = Map.copyOf(callersByDigest);
    }

    /**
     * Parses {@code principal=role:token,...}.
     *
     * @throws CryoException naming the malformed entry (without its token)
     */
    public static ApiTokens parse(Optional<String> specification) {
        Map<String, Caller> callers = new HashMap<>();
        for (String entry : specification.map(s -> List.of(s.split(","))).orElse(List.of())) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            int equals = trimmed.indexOf('=');
            int colon = trimmed.indexOf(':', Math.max(equals, 0));
            if (equals <= 0 || colon < 0 || colon == trimmed.length() - 1) {
                String principal = equals > 0 ? trimmed.substring(0, equals) : "?";
                throw new CryoException(CommonErrorCode.INVALID_REQUEST, "Cannot read cryo.security.tokens: the entry of '"
                        + principal + "' is not <principal>=<role>:<token>");
            }
            String principal = trimmed.substring(0, equals).trim();
            String role = trimmed.substring(equals + 1, colon).trim();
            if (!ROLES.contains(role)) {
                throw new CryoException(CommonErrorCode.INVALID_REQUEST, "Cannot read cryo.security.tokens: role '"
                        + role + "' of '" + principal + "' is not one of " + ROLES);
            }
            String token = trimmed.substring(colon + 1).trim();
            if (token.length() < 16) {
                throw new CryoException(CommonErrorCode.INVALID_REQUEST, "Cannot read cryo.security.tokens: the token of '"
                        + principal + "' is shorter than 16 characters");
            }
            callers.put(digest(token), new Caller(principal, role));
        }
        return new ApiTokens(callers);
    }

    /** The caller a token belongs to. */
    public Optional<Caller> find(String token) {
        byte[] presented = digestBytes(token);
        for (Map.Entry<String, Caller> entry : callersByDigest.entrySet()) {
            if (MessageDigest.isEqual(presented, hexToBytes(entry.getKey()))) {
                return Optional.of(entry.getValue());
            }
        }
        return Optional.empty();
    }

    public boolean isEmpty() {
        return callersByDigest.isEmpty();
    }

    private static String digest(String token) {
        StringBuilder hex = new StringBuilder();
        for (byte b : digestBytes(token)) {
            hex.append(String.format("%02x", b));
        }
        return hex.toString();
    }

    private static byte[] digestBytes(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static byte[] hexToBytes(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }
}
